package schema

// HostOffHistory: this host's baseline ran outside the band of its own
// earlier records of the scenario (Method.History): the baseline Arm's
// median of Metric, Value, against their median Median and the band Lo–Hi
// around it. Change is Value/Median − 1; Worse is set when the change is in
// the metric's worse direction (slower, for a rate). Records counts the
// records compared and Compared names them, newest first, comma-separated;
// OtherEngine counts those whose baseline ran another engine binary. The
// interleaved ratios are not touched by it: the absolute numbers are.
type HostOffHistory struct {
	Arm         string  `json:"arm"`
	Metric      string  `json:"metric"`
	Value       float64 `json:"value"`
	Median      float64 `json:"median" v2:"limit"`
	Lo          float64 `json:"lo"`
	Hi          float64 `json:"hi"`
	Change      float64 `json:"change" v2:"p"`
	Worse       bool    `json:"worse,omitempty" v2:"-"`
	Records     int     `json:"records" v2:"n"`
	OtherEngine int     `json:"other_engine,omitempty" v2:"m"`
	Compared    string  `json:"compared" v2:"text"`
}

func (HostOffHistory) Code() Code { return "host-off-history" }

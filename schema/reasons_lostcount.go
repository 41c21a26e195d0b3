package schema

// Lost counts: a command engine's run whose output lacked a count its
// arm's expectation needs fails (a lost line, not a 0) and on_failure
// retries or excludes it. The analysis bounds how often an arm may do so
// (analysis/lostcounts.go): beyond the bound the missing line is the
// engine not engaging, not a lost one.

// TooManyLostCounts: Lost of the Attempts of Arm failed because the
// command printed no line for Counter, which the arm's expectation needs:
// more than one, and more than one in ten of the arm's attempts. A
// feature that engages on some runs only would pass by having the others
// dropped or retried; the campaign is REJECTED.
type TooManyLostCounts struct {
	Arm      string `json:"arm"`
	Counter  string `json:"counter"`
	Lost     int    `json:"lost" v2:"n"`
	Attempts int    `json:"attempts" v2:"m"`
}

// LostCounts: Lost of the Attempts of Arm failed because the command
// printed no line for Counter, within the bound a lost log tail is allowed
// (TooManyLostCounts): those runs were retried or excluded, and the
// measured runs alone showed the counter's evidence.
type LostCounts struct {
	Arm      string `json:"arm"`
	Counter  string `json:"counter"`
	Lost     int    `json:"lost" v2:"n"`
	Attempts int    `json:"attempts" v2:"m"`
}

func (TooManyLostCounts) Code() Code { return "too-many-lost-counts" }
func (LostCounts) Code() Code        { return "lost-counts" }

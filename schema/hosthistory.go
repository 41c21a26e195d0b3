package schema

// HostHistory is this host's own history of the scenario, as the campaign
// found it when it ended: the baseline arm's median of the primary metric
// in the earlier records of the same feature, hardware and scenario
// meaning (its hash) in the records folder, newest first. It is stored, not
// looked up again: the analysis (and so check) derives the band and the
// warning (HostOffHistory) from these values alone, so a record's warning
// never changes when the folder does.
type HostHistory struct {
	// Arm and Metric are the baseline arm and the primary metric compared.
	Arm    string `json:"arm"`
	Metric string `json:"metric"`
	// Records are the earlier records compared, newest first.
	Records []HistoryValue `json:"records"`
}

// HistoryValue is one earlier record's baseline median.
type HistoryValue struct {
	// Record is the record's file name without .md.
	Record string  `json:"record"`
	Date   string  `json:"date"`
	Value  float64 `json:"value"`
	// OtherEngine is set when that record's baseline ran another engine
	// binary (by its sha256) than this campaign's.
	OtherEngine bool `json:"other_engine,omitempty"`
}

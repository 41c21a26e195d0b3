package schema

// ArmRoofline is an arm's decode rate as a share of what the hardware
// allows: the memory bandwidth over the bytes a decoded token reads.
// Effective is set where the share can pass 1 (a speculative arm reads
// the weights once for several tokens). BandwidthSource says where the
// bandwidth came from (a table entry's source, or "measured").
type ArmRoofline struct {
	Arm             string  `json:"arm"`
	Share           float64 `json:"share"`
	Effective       bool    `json:"effective,omitempty"`
	BytesPerToken   float64 `json:"bytes_per_token"`
	BandwidthGBs    float64 `json:"bandwidth_gbs"`
	BandwidthSource string  `json:"bandwidth_source"`
}

// RooflineOf is arm's roofline share in the record, if it has one.
func (r *Record) RooflineOf(arm string) (ArmRoofline, bool) {
	for _, x := range r.Roofline {
		if x.Arm == arm {
			return x, true
		}
	}
	return ArmRoofline{}, false
}

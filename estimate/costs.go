package estimate

import (
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Basis says where an estimate's costs come from.
type Basis string

// Cost bases.
const (
	// BasisGuess: the Guess constants, no record to go by.
	BasisGuess Basis = "guess"
	// BasisAnatomy: a record's noise anatomy (its pooled start and
	// request costs).
	BasisAnatomy Basis = "anatomy"
	// BasisRuns: a record's runs (their whole times and measured wall
	// times).
	BasisRuns Basis = "runs"
)

// Costs are what one engine start and one request of a scenario take, the
// inputs of Duration.
type Costs struct {
	Basis Basis `json:"basis"`
	// Record is the record file the costs come from; empty for a guess.
	Record string `json:"record,omitempty"`
	// Hardware is that record's hardware. OtherHardware is set when it is
	// not the hardware the campaign would record: the scenario says
	// "auto" and no record of this machine's hardware could be used.
	Hardware      string `json:"hardware,omitempty"`
	OtherHardware bool   `json:"other_hardware,omitempty"`
	// Start is a start's fixed cost for this scenario, in the noise
	// anatomy's sense: its cooldown, the engine's launch to ready, its
	// warmups and its stop; everything but its measured requests.
	Start time.Duration `json:"start_ns"`
	// Request is one request of this scenario's max_tokens.
	Request time.Duration `json:"request_ns"`
	// RecordTokens is the record's max_tokens when Request was scaled from
	// it to this scenario's; 0 when not scaled.
	RecordTokens int `json:"record_tokens,omitempty"`
	// Adjusted is set when Start was moved from the record's to this
	// scenario's cooldown, warmups or request length.
	Adjusted bool `json:"adjusted,omitempty"`
	// IDs is set when the record's starts sent their last warmup whole
	// for the identity check's token ids (its noise anatomy left it out):
	// Start has no token replay in it, and a start too short for its
	// warmup to give the ids pays one (Replays).
	IDs bool `json:"ids,omitempty"`
	// Unread are the folder's files named as the feature's records that
	// could not be read (history.UnreadableOf): the costs may come from
	// an older record, or be the guess, because of them.
	Unread []string `json:"unread,omitempty"`
}

// Replays reports whether a start with warmup warmups and k measured
// requests pays a token replay, a request's time, that Start does not
// hold: the record's starts got their token ids from a whole warmup,
// which this one is too short to send (schema.WholeWarmupMin).
func (c Costs) Replays(warmup, k int) bool {
	return c.IDs && warmup+max(1, k) < schema.WholeWarmupMin
}

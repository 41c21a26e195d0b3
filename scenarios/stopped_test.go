package scenarios

import (
	"testing"
	"time"
)

// A budget's look at a max off the looks' grid is worded as it is now and
// as builds before 6e591b0 wrote it ("the next look would not fit");
// every other stop has one wording.
func TestSequentialStopWordings(t *testing.T) {
	r := Rounds{Min: 5, Max: 12, Every: 5, MaxTime: Duration{10 * time.Minute}}
	w := r.SequentialStopWordings(10, true, nil, 30*time.Second)
	if len(w) != 2 || w[1] != "budget of 10m0s: the next look would not fit (a round took 30s); the look after 10 rounds was the last, no decision for every test arm" {
		t.Errorf("max off the grid: %q", w)
	}
	r.Max = 15
	if w := r.SequentialStopWordings(15, true, nil, 30*time.Second); len(w) != 1 || w[0] != "maximum of 15 rounds reached at the last sequential look: no decision for every test arm" {
		t.Errorf("max: %q", w)
	}
	if w := r.SequentialStopWordings(10, false, nil, 30*time.Second); w != nil {
		t.Errorf("going on: %q", w)
	}
}

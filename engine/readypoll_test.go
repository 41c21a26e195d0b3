package engine

import (
	"testing"
	"time"
)

// The ready check asks every 20ms in its first two seconds, where a small
// model's engine is ready, and every 100ms after.
func TestReadyPollFastThenSlow(t *testing.T) {
	for _, tc := range []struct {
		left, timeout, want time.Duration
	}{
		{time.Minute, time.Minute, 20 * time.Millisecond},
		{time.Minute - 1900*time.Millisecond, time.Minute, 20 * time.Millisecond},
		{time.Minute - 2*time.Second, time.Minute, 100 * time.Millisecond},
		{time.Second, time.Minute, 100 * time.Millisecond},
		{time.Second, time.Second, 20 * time.Millisecond},
	} {
		if got := readyPoll(tc.left, tc.timeout); got != tc.want {
			t.Errorf("readyPoll(%v left of %v) = %v, want %v", tc.left, tc.timeout, got, tc.want)
		}
	}
}

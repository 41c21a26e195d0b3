package console

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
)

// A watch prints a source that is not available once, and again only when
// its reason changes: never the same n/a lines every sample.
func TestMachineWatchSaysNAOnce(t *testing.T) {
	snap := func(reason string) machine.Snapshot {
		s := machine.Snapshot{Time: time.Unix(0, 0)}
		s.Conditions.Unavailable = []machine.Unavailable{{Source: "nvidia-smi", Reason: reason}, {Source: "pmset", Reason: "not macOS"}}
		return s
	}
	var out bytes.Buffer
	var snaps Snapshots
	for _, r := range []string{"not installed", "not installed", "not installed", "exit status 9"} {
		snaps.Write(&out, snap(r))
	}
	got := out.String()
	if n := strings.Count(got, "n/a       nvidia-smi: not installed"); n != 1 {
		t.Errorf("said nvidia-smi not installed %d times:\n%s", n, got)
	}
	if n := strings.Count(got, "n/a       pmset: not macOS"); n != 1 {
		t.Errorf("said pmset not macOS %d times:\n%s", n, got)
	}
	if !strings.Contains(got, "n/a       nvidia-smi: exit status 9") || strings.Count(got, "-- ") != 4 {
		t.Errorf("a changed reason, or a sample, went unsaid:\n%s", got)
	}
}

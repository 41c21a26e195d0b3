package machine

import (
	"context"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A Snapshot is the machine's state at one moment: load, conditions and the
// processes on NVIDIA GPUs. Take one before and one after each measured run
// (and, if wanted, during it) and compare.
type Snapshot struct {
	Time         time.Time          `json:"time"`
	Load         *schema.LoadSample `json:"load,omitempty"`
	LoadError    string             `json:"load_error,omitempty"`
	Conditions   Conditions         `json:"conditions"`
	GPUProcesses []GPUProcess       `json:"gpu_processes,omitempty"`
}

// TakeSnapshot reads the machine now. s may be nil for no load reading; a
// Sampler shared between snapshots makes each CPU busy % cover the time
// since the previous one. It never fails: what cannot be read is said in
// the Snapshot.
func TakeSnapshot(ctx context.Context, s *Sampler) Snapshot {
	snap := Snapshot{Time: time.Now()}
	if s != nil {
		if l, err := s.Sample(ctx); err != nil {
			snap.LoadError = err.Error()
		} else {
			snap.Load = &l
		}
	}
	snap.Conditions = ReadConditions(ctx)
	if len(snap.Conditions.GPUs) > 0 {
		ps, err := NvidiaProcesses(ctx)
		if err != nil {
			unavailable(&snap.Conditions.Unavailable, "nvidia-smi --query-compute-apps", err)
		}
		snap.GPUProcesses = ps
	}
	return snap
}

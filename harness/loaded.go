package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// What each run's engine really loaded (engine.Server.Mapped): read after
// the engine is ready and its warmups served, before the measured window,
// and again after it (a backend loaded at the first request is in), hashed
// after the window. Every run of an arm must load what its first run did,
// and two arms whose binaries and loaded libraries are byte-identical,
// with the same arguments and environment, are an A/A comparison: either
// fails the run that shows it.

// mapped is the shared objects srv's process tree has mapped now; none
// where they cannot be read.
func (c *campaign) mapped(ctx context.Context, srv *engine.Server) []string {
	paths, _ := srv.Mapped(ctx)
	return paths
}

// loaded hashes what the run's engine mapped into run.Loaded and checks it
// against the arm's earlier runs and the other arms'.
func (c *campaign) loaded(run *schema.Run, before, after []string) error {
	paths := append(slices.Clone(before), after...)
	if len(paths) == 0 {
		return nil
	}
	run.Loaded = engine.HashLoaded(paths)
	if c.rec == nil {
		return nil
	}
	for _, r := range c.rec.Runs {
		if len(r.Loaded) == 0 || !r.OK() {
			continue
		}
		if r.Arm == run.Arm {
			if d := loadedDiff(r.Loaded, run.Loaded); d != "" {
				return fmt.Errorf("arm %s's engine loaded other libraries than in run %d (%s): the code that ran changed mid-campaign", run.Arm, r.Seq, d)
			}
			continue
		}
		if err := c.engines.sameLoaded(c.scenario, r.Arm, run.Arm, r.Loaded, run.Loaded); err != nil {
			return err
		}
	}
	return nil
}

// loadedKey is a loaded set by content: each library's file name and
// sha256, sorted, so that two installs in different folders compare.
func loadedKey(fs []schema.FileSum) string {
	var k []string
	for _, f := range fs {
		k = append(k, filepath.Base(f.Path)+" "+f.SHA256)
	}
	slices.Sort(k)
	return strings.Join(k, ",")
}

// loadedDiff names the libraries one set has and the other has not (by
// file name and sha256), "" when they are the same.
func loadedDiff(old, nu []schema.FileSum) string {
	key := func(f schema.FileSum) string { return filepath.Base(f.Path) + " " + abbrevSHA(f.SHA256) }
	o, n := map[string]bool{}, map[string]bool{}
	for _, f := range old {
		o[key(f)] = true
	}
	for _, f := range nu {
		n[key(f)] = true
	}
	var out []string
	for _, f := range nu {
		if !o[key(f)] {
			out = append(out, "+"+key(f))
		}
	}
	for _, f := range old {
		if !n[key(f)] {
			out = append(out, "−"+key(f))
		}
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), ", ")
}

func abbrevSHA(s string) string {
	if s == "" {
		return "(not hashed)"
	}
	return s[:min(len(s), 12)]
}

// recordLoaded puts into the record the set each arm's runs loaded (they
// are the same within an arm: loaded refuses a run that differs), the
// arms with byte-identical sets together, in the scenario's arm order.
func recordLoaded(rec *schema.Record) {
	rec.Loaded = nil
	byArm := map[string][]schema.FileSum{}
	for _, r := range rec.Runs {
		if _, ok := byArm[r.Arm]; !ok && len(r.Loaded) > 0 && r.OK() {
			byArm[r.Arm] = r.Loaded
		}
	}
	for _, a := range rec.Scenario.Arms {
		set, ok := byArm[a.Name]
		if !ok {
			continue
		}
		i := slices.IndexFunc(rec.Loaded, func(l schema.ArmsLoaded) bool { return slices.EqualFunc(l.Libraries, set, sameFileSum) })
		if i < 0 {
			rec.Loaded = append(rec.Loaded, schema.ArmsLoaded{Libraries: set})
			i = len(rec.Loaded) - 1
		}
		rec.Loaded[i].Arms = append(rec.Loaded[i].Arms, a.Name)
	}
}

func sameFileSum(a, b schema.FileSum) bool { return a == b }

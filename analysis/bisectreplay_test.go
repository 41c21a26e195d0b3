package analysis

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A replay gives, step after step, the commit NextBisectCommit gives for
// the classes measured so far, whatever the classes (good, bad, skipped
// as undecided or build-failed) and the size of the range.
func TestBisectReplayIsNextBisectCommit(t *testing.T) {
	classes := []schema.BisectClass{schema.ClassGood, schema.ClassBad, schema.ClassUndecided, schema.ClassBuildFailed}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := rng.IntN(40)
		if trial%100 == 0 {
			n = 500 + rng.IntN(500)
		}
		commits := make([]string, n)
		for i := range commits {
			commits[i] = fmt.Sprintf("c%d", i)
		}
		// Each commit's class, drawn once, with more skips in some trials.
		skips := rng.IntN(4)
		of := map[string]schema.BisectClass{}
		for _, c := range commits {
			k := classes[rng.IntN(2)]
			if rng.IntN(4) < skips {
				k = classes[2+rng.IntN(2)]
			}
			of[c] = k
		}
		r := NewBisectReplay(commits)
		measured := map[string]schema.BisectClass{}
		for step := 0; ; step++ {
			want, wantDone := NextBisectCommit(commits, measured)
			got, done := r.Next()
			if got != want || done != wantDone {
				t.Fatalf("trial %d (%d commits), step %d: replay %q %v, NextBisectCommit %q %v", trial, n, step, got, done, want, wantDone)
			}
			if done {
				break
			}
			measured[got] = of[got]
			r.Measured(got, of[got])
		}
	}
}

// A replay of a range of many commits, all skipped but the bad revision,
// takes about constant time a step: NextBisectCommit for each step took
// a time quadratic in the range.
func BenchmarkBisectReplaySkipped(b *testing.B) {
	const n = 200_000
	commits := make([]string, n)
	for i := range commits {
		commits[i] = fmt.Sprint(i)
	}
	for b.Loop() {
		r := NewBisectReplay(commits)
		for {
			c, done := r.Next()
			if done {
				break
			}
			k := schema.ClassUndecided
			if c == commits[n-1] {
				k = schema.ClassBad
			}
			r.Measured(c, k)
		}
	}
}

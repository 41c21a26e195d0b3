package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// budgeted is a campaign of a sequential schedule with a budget in
// minutes, its record holding rounds of runs that each took perRun, as a
// campaign at a look would.
func budgeted(t *testing.T, rounds int, perRun time.Duration) *campaign {
	t.Helper()
	return budgetedAs(t, "{min: 2, max_time: 1m, every: 2}", rounds, perRun)
}

// budgetedAs is budgeted with the schedule's rounds given.
func budgetedAs(t *testing.T, spec string, rounds int, perRun time.Duration) *campaign {
	t.Helper()
	src := strings.Replace(testScenario, "rounds: 6", "rounds: "+spec+", cooldown: 0s", 1) + "gates: {max_spread: 0}\n"
	c := testCampaign(t, src)
	dir := t.TempDir()
	c.recPath, c.dataDir = filepath.Join(dir, "t.md"), filepath.Join(dir, "data", "t")
	if err := os.MkdirAll(c.dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.holdFolders(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.releaseFolders)
	c.rec = c.newRecord("x", "2026-01-01", schema.MachineInfo{}, time.Unix(0, 0))
	seq := 0
	for r := 1; r <= rounds; r++ {
		for _, arm := range []string{"a", "b"} {
			seq++
			v := 100 + float64(seq%3)
			if arm == "b" {
				v += 0.3 * float64(seq%2)
			}
			c.rec.Runs = append(c.rec.Runs, schema.Run{Seq: seq, Round: r, Arm: arm, Start: time.Unix(int64(seq*10), 0), Seconds: perRun.Seconds(),
				Metrics: map[string]float64{schema.DecodeTokS: v, schema.WallS: 1}, Counters: map[string]schema.CounterReading{"c": {Value: map[string]float64{"a": 0, "b": 5}[arm]}}})
		}
	}
	return c
}

// A budget in minutes: at each look the harness plans the rounds the
// budget allows at the time a round has taken, keeps the plan in the record
// and the resume state, and stops at the look the next would not fit
// after, saying so; with room left it looks on.
func TestBudgetPlansLooks(t *testing.T) {
	c := budgeted(t, 2, 10*time.Second) // a round takes 20 s: 40 s of 60 spent
	done, why := c.scheduleDone(2)
	if !done || !strings.Contains(why, "budget of 1m0s") {
		t.Errorf("a look with room for one more round, not two: done %v, %q", done, why)
	}
	if got := c.rec.Method.PlannedRounds; len(got) != 1 || got[0] != 3 {
		t.Errorf("planned rounds %v, want [3]", got)
	}
	if st, err := readState(c.dataDir); err != nil || len(st.PlannedRounds) != 1 {
		t.Errorf("the resume state keeps no plan: %v, %v", st.PlannedRounds, err)
	}
	if c.rec.Method.MaxTime != "1m0s" {
		t.Errorf("the record names no budget: %q", c.rec.Method.MaxTime)
	}

	c = budgeted(t, 2, time.Second) // a round takes 2 s
	done, why = c.scheduleDone(2)
	if done || !strings.Contains(why, "the budget of 1m0s") {
		t.Errorf("a look with room for many: done %v, %q", done, why)
	}
	if got := c.rec.Method.PlannedRounds; len(got) != 1 || got[0] != 30 {
		t.Errorf("planned rounds %v, want [30]", got)
	}
	// Between looks nothing is planned.
	c.rec.Runs = c.rec.Runs[:0]
	if c.scheduleDone(3); len(c.rec.Method.PlannedRounds) != 1 {
		t.Errorf("a round between looks planned: %v", c.rec.Method.PlannedRounds)
	}
}

// A max off the looks' grid (2, 4, then 5) is never looked at under a
// budget: the look before it is the last, and the campaign says why (it
// said "the next look would not fit" with the budget far from spent).
func TestBudgetLookAtMaxOffTheGrid(t *testing.T) {
	c := budgetedAs(t, "{min: 2, max: 5, max_time: 1m, every: 2}", 4, time.Second) // a round takes 2 s
	if done, why := c.scheduleDone(2); done {
		t.Fatalf("the first look stopped: %q", why)
	}
	done, why := c.scheduleDone(4)
	if !done || !strings.Contains(why, "the look at max (5 rounds) is 1 round(s) on, fewer than every (2)") || strings.Contains(why, "would not fit") {
		t.Errorf("done %v, %q", done, why)
	}
}

// The progress line counts to the next sequential look, not to the round
// under way (which showed an ETA of 0 s with a look minutes away).
func TestProgressCountsToTheNextLook(t *testing.T) {
	c := budgeted(t, 0, time.Second) // looks every 2 rounds, 2 arms
	for rounds, want := range map[int]int{2: 4, 3: 8, 4: 8, 5: 12} {
		plan, err := c.plan(rounds)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.runsToNextLook(&schedule{plan: plan, rounds: rounds}); got != want {
			t.Errorf("after adding round %d: %d runs to count, want %d", rounds, got, want)
		}
	}
}

// A campaign whose rounds outran its budget says so where it says why it
// stopped: by how much, on the budget's own measure (runs and cooldowns),
// and why a budget can be outrun at all; within the budget it says
// nothing of it.
func TestBudgetOverrunIsStated(t *testing.T) {
	c := budgeted(t, 2, 40*time.Second) // a round takes 80 s: the first look is past a budget of 60
	done, why := c.scheduleDone(2)
	const want = "; the 2 rounds' runs and cooldowns took 2m40s, 1m40s past the budget of 1m0s (the first look comes after min (2) rounds, whatever they take)"
	if !done || !strings.HasSuffix(why, want) {
		t.Errorf("done %v, %q\nwant it to end %q", done, why, want)
	}
	// 60.4 s of 60: under a second is the budget's rounding, not stated
	// (it read "0s past the budget").
	if done, why := budgeted(t, 2, 15100*time.Millisecond).scheduleDone(2); !done || strings.Contains(why, "past the budget") {
		t.Errorf("0.4 s over: done %v, %q", done, why)
	}
	// Looks at 2 and 4 rounds, runs of 7 s: the first look plans 4 rounds
	// (28 s spent, two rounds of 14 s fit in the 32 s left).
	for _, last := range []float64{7, 9} {
		c = budgeted(t, 4, 7*time.Second)
		all := c.rec.Runs
		c.rec.Runs = all[:4]
		if done, why := c.scheduleDone(2); done {
			t.Fatalf("the first look stopped: %q", why)
		}
		c.rec.Runs = all
		for i := 4; i < len(all); i++ {
			all[i].Seconds = last
		}
		done, why := c.scheduleDone(4)
		switch {
		case !done:
			t.Errorf("runs of %g s after the first look: the second did not stop: %q", last, why)
		case last == 7 && strings.Contains(why, "past the budget"): // 56 s of 60
			t.Errorf("within the budget: %q", why)
		case last == 9 && !strings.HasSuffix(why, "; the 4 rounds' runs and cooldowns took 1m4s, 4s past the budget of 1m0s (the rounds since the look before took longer than those before it)"):
			t.Errorf("past the budget at the second look (64 s of 60): %q", why)
		}
	}
}

package history_test

import (
	"slices"
	"testing"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/schema"
)

// Changes names each kind of difference between two records of one
// series once, and nothing for two records that ran the same things.
func TestChanges(t *testing.T) {
	rec := func(threads, model, sha, version, commit string, overrides ...string) *schema.Record {
		r := &schema.Record{}
		r.Scenario.Vars = []schema.VarInfo{{Name: "MODEL_DIR", Value: "/m"}, {Name: "THREADS", Value: threads, FromEnv: true}}
		r.Scenario.Overrides = overrides
		r.Engine.SHA256, r.Engine.Version, r.Engine.SourceCommit = sha, version+"\nbuilt with cc", commit
		r.Engine.Models = []schema.ModelFile{{Arg: "/m/target.gguf", Path: "/m/target.gguf", SHA256: model}}
		r.Scenario.Baseline = "base"
		r.Scenario.Arms = []schema.ArmInfo{{Name: "other", Command: []string{"x"}}, {Name: "base", Command: []string{"llama-server", "-t", threads}}}
		return r
	}
	a := rec("2", "m1", "e1", "b100", "c1")
	if got := history.Changes(a, rec("2", "m1", "e1", "b100", "c1")); len(got) != 0 {
		t.Errorf("two records that ran the same things differ: %+v", got)
	}
	got := history.Changes(a, rec("1", "m2", "e2", "b101", "c2", "schedule.cooldown=0s"))
	want := []history.Change{
		{Kind: history.ChangeVar, Name: "THREADS", Before: "2", After: "1"},
		{Kind: history.ChangeOverrides, Before: "", After: "schedule.cooldown=0s"},
		{Kind: history.ChangeEngineBinary, Before: "e1", After: "e2"},
		{Kind: history.ChangeEngineVersion, Before: "b100", After: "b101"},
		{Kind: history.ChangeSourceCommit, Before: "c1", After: "c2"},
		{Kind: history.ChangeModel, Name: "1", Before: "m1", After: "m2"},
		{Kind: history.ChangeCommand, Before: "llama-server -t 2", After: "llama-server -t 1"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n got %+v\nwant %+v", got, want)
	}
	// A variable one side lacks is a change from or to nothing.
	b := rec("2", "m1", "e1", "b100", "c1")
	b.Scenario.Vars = b.Scenario.Vars[:1]
	b.Scenario.Arms[0].Command = []string{"y"} // not the baseline's
	if got := history.Changes(a, b); !slices.Equal(got, []history.Change{{Kind: history.ChangeVar, Name: "THREADS", Before: "2"}}) {
		t.Errorf("a dropped variable: %+v", got)
	}
}

package review

import (
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// checkEngines checks a record whose arms ran several engines: it is v4
// or v5, every arm is listed under exactly one engine, the engines differ,
// and Engine is the baseline's. A v3 or v2 record has no Engines, a v4
// record has them.
func checkEngines(rec *schema.Record) []Problem {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{"Engine", fmt.Sprintf(format, args...)})
	}
	switch {
	case len(rec.Engines) == 0 && rec.Schema == schema.SchemaV4:
		add("a %s record lists the engines its arms ran, this one none", rec.Schema)
		return probs
	case len(rec.Engines) == 0:
		return nil
	case rec.Schema != schema.SchemaV4 && rec.Schema != schema.SchemaV5:
		add("a %s record cannot list engines per arm (that is %s or %s)", rec.Schema, schema.SchemaV4, schema.SchemaV5)
	case len(rec.Engines) < 2:
		add("one engine listed per arm: a record whose arms ran one engine names it once")
	}
	seen := map[string]int{}
	for _, e := range rec.Engines {
		for _, a := range e.Arms {
			seen[a]++
		}
	}
	for _, a := range rec.Scenario.Arms {
		if seen[a.Name] != 1 {
			add("arm %s is listed under %d engines, want 1", a.Name, seen[a.Name])
		}
		delete(seen, a.Name)
	}
	for a := range seen {
		add("engine listed for %s, which is not an arm", a)
	}
	if b := rec.EngineOf(rec.Scenario.Baseline); b.SHA256 != rec.Engine.SHA256 || b.Path != rec.Engine.Path {
		add("the record's engine is not the baseline %s's", rec.Scenario.Baseline)
	}
	return probs
}

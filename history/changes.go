package history

import (
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// ChangeKind says what differs between the records on either side of a
// step.
type ChangeKind string

// What a step's two records can differ in: a scenario variable's value
// (the scenario's meaning is the same in one series, but a variable the
// environment gives, such as a model folder or a thread count, is not
// part of it), the override list, the engine binary (its sha256), its
// version or source commit, a model file the engine command names (by its
// sha256). The arms' command lines are not compared: in one series they
// come from one scenario meaning, its variables and its overrides.
const (
	ChangeVar           ChangeKind = "var"
	ChangeOverrides     ChangeKind = "overrides"
	ChangeEngineBinary  ChangeKind = "engine_sha256"
	ChangeEngineVersion ChangeKind = "engine_version"
	ChangeSourceCommit  ChangeKind = "source_commit"
	ChangeModel         ChangeKind = "model"
)

// Change is one difference between the records on either side of a step.
// Name is the variable's name (ChangeVar) or the model's argument and
// path as the engine command gives it (ChangeModel); Before and After are
// the two values, "" where one side has none.
type Change struct {
	Kind   ChangeKind `json:"kind"`
	Name   string     `json:"name,omitempty"`
	Before string     `json:"before"`
	After  string     `json:"after"`
}

// Changes lists what differs between record a and the later record b, in
// the order of the ChangeKind constants (variables by name, models by
// argument).
func Changes(a, b *schema.Record) []Change {
	var out []Change
	add := func(k ChangeKind, name, x, y string) {
		if x != y {
			out = append(out, Change{Kind: k, Name: name, Before: x, After: y})
		}
	}
	va, vb := varMap(a.Scenario.Vars), varMap(b.Scenario.Vars)
	for _, n := range unionKeys(va, vb) {
		add(ChangeVar, n, va[n], vb[n])
	}
	add(ChangeOverrides, "", joinLines(a.Scenario.Overrides), joinLines(b.Scenario.Overrides))
	add(ChangeEngineBinary, "", a.Engine.SHA256, b.Engine.SHA256)
	add(ChangeEngineVersion, "", firstLine(a.Engine.Version), firstLine(b.Engine.Version))
	add(ChangeSourceCommit, "", a.Engine.SourceCommit, b.Engine.SourceCommit)
	ma, mb := modelMap(a.Engine.Models), modelMap(b.Engine.Models)
	for _, n := range unionKeys(ma, mb) {
		add(ChangeModel, n, ma[n], mb[n])
	}
	return out
}

func varMap(vs []schema.VarInfo) map[string]string {
	m := map[string]string{}
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

// modelMap keys each model file by its argument (e.g. -m), its value the
// file's sha256: a model folder that moved but holds the same file is no
// change of model (its variable still shows).
func modelMap(ms []schema.ModelFile) map[string]string {
	m := map[string]string{}
	for _, f := range ms {
		m[f.Arg] = f.SHA256
	}
	return m
}

func unionKeys(a, b map[string]string) []string {
	var ks []string
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

func joinLines(ss []string) string { return strings.Join(ss, "\n") }

package history

import (
	"slices"
	"strconv"
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
// sha256, paired by their place in the command), or the baseline arm's
// command line, where the value of a variable the environment gave shows
// (the record does not keep that value itself).
const (
	ChangeVar           ChangeKind = "var"
	ChangeOverrides     ChangeKind = "overrides"
	ChangeEngineBinary  ChangeKind = "engine_sha256"
	ChangeEngineVersion ChangeKind = "engine_version"
	ChangeSourceCommit  ChangeKind = "source_commit"
	ChangeModel         ChangeKind = "model"
	ChangeCommand       ChangeKind = "baseline_command"
)

// Change is one difference between the records on either side of a step.
// Name is the variable's name (ChangeVar) or the model file's place in
// the engine command, from 1 (ChangeModel); Before and After are
// the two values, "" where one side has none.
type Change struct {
	Kind   ChangeKind `json:"kind"`
	Name   string     `json:"name,omitempty"`
	Before string     `json:"before"`
	After  string     `json:"after"`
}

// Changes lists what differs between record a and the later record b, in
// the order of the ChangeKind constants (variables by name, models by
// place).
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
	for i := range max(len(a.Engine.Models), len(b.Engine.Models)) {
		add(ChangeModel, strconv.Itoa(i+1), modelSum(a.Engine.Models, i), modelSum(b.Engine.Models, i))
	}
	add(ChangeCommand, "", strings.Join(baselineCommand(a), " "), strings.Join(baselineCommand(b), " "))
	return out
}

func varMap(vs []schema.VarInfo) map[string]string {
	m := map[string]string{}
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

// modelSum is the sha256 of the i-th model file the engine command
// names, "" when it names fewer.
func modelSum(ms []schema.ModelFile, i int) string {
	if i < len(ms) {
		return ms[i].SHA256
	}
	return ""
}

func baselineCommand(r *schema.Record) []string {
	for _, a := range r.Scenario.Arms {
		if a.Name == r.Scenario.Baseline {
			return a.Command
		}
	}
	return nil
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

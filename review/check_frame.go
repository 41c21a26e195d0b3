package review

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkFrame compares what the data block states of its scenario with
// what the stored scenario decides (scenarios.Frame): the hash ties the
// stored file to the record, but the renderer, diff and the index read
// the data block's own copy of the baseline, primary metric, arms,
// counters and thresholds. Without this a record re-rendered with its
// primary metric or baseline changed checked clean and `diff
// --fail-on-regression` gated on another metric and missed a regression.
// The arms' commands and environments come from the machine's variables
// and are not compared.
func checkFrame(s *scenarios.Scenario, rec *schema.Record) []Problem {
	want := *rec
	s.Frame(&want)
	for i := range want.Scenario.Arms {
		if i < len(rec.Scenario.Arms) {
			want.Scenario.Arms[i].Command, want.Scenario.Arms[i].Env = rec.Scenario.Arms[i].Command, rec.Scenario.Arms[i].Env
		}
	}
	var keys []string
	keys = append(keys, differing("", reflect.ValueOf(*rec), reflect.ValueOf(want), "feature", "title", "issue", "counters")...)
	keys = append(keys, differing("scenario.", reflect.ValueOf(rec.Scenario), reflect.ValueOf(want.Scenario))...)
	keys = append(keys, differing("method.", reflect.ValueOf(rec.Method), reflect.ValueOf(want.Method))...)
	var out []Problem
	if len(keys) > 0 {
		out = append(out, Problem{Section: "Summary", Message: termsafe.String("the data block's " + strings.Join(keys, ", ") +
			" differ(s) from what the stored scenario decides: the record was edited apart from the scenario it stores")})
	}
	// The rounds run are the rounds planned when the campaign ended: at
	// least the last round with a run, and no more than the schedule's max
	// (or that last round, where runs go past it).
	last := 0
	for _, r := range rec.Runs {
		last = max(last, r.Round)
	}
	if n, most := rec.Method.RoundsRun, s.Schedule.Rounds.Max; n < last || n > max(most, last) {
		out = append(out, Problem{Section: "Method", Message: fmt.Sprintf("rounds run %d: the runs reach round %d and the stored scenario's schedule at most %d", n, last, most)})
	}
	return out
}

// maskable are the fields whose stored text the redactor may have masked
// whole where the record keeps it (sameMasked): text a reader reads, never
// one that decides a verdict. A counter's pattern, a metric's name, the
// baseline or an arm's name is compared as it is: a scenario that typed
// "[redacted]" into a counter's log pattern (a character class that
// matches nearly any line) let its record show another pattern beside
// the evidence the stored one gave, and check passed it.
var maskable = []string{"title", "issue", "scenario.vars", "scenario.request", "scenario.unmeasured", "scenario.allow_unverified"}

// differing names the fields of two values of one struct type that
// differ, by their JSON names: only those listed, or all. An empty slice
// or map equals a missing one (a record's JSON may hold either).
func differing(prefix string, a, b reflect.Value, only ...string) []string {
	var out []string
	t := a.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || (len(only) > 0 && !contains(only, name)) {
			continue
		}
		x, y := a.Field(i), b.Field(i)
		if (x.Kind() == reflect.Slice || x.Kind() == reflect.Map) && x.Len() == 0 && y.Len() == 0 {
			continue
		}
		if x.IsZero() && contains(absentInOlder, prefix+name) {
			continue
		}
		if !sameMasked(x, y, contains(maskable, prefix+name)) {
			out = append(out, prefix+name)
		}
	}
	return out
}

// sameMasked is reflect.DeepEqual (an empty slice or map equal to none),
// but where masks is set and the stored scenario's side (want) of a
// string holds redact.Mask the record's side may hold anything there
// (matchMasked): the stored scenario masks the whole value under a key that reads
// as a credential ("- Time to first token: …" is stored as "Time to first
// token: [redacted]"), the record only the secrets it knows. The stored
// file is hashed; what such a mask hides is display.
func sameMasked(got, want reflect.Value, masks bool) bool {
	switch got.Kind() {
	case reflect.String:
		if !masks {
			return got.String() == want.String()
		}
		return matchValueMask(got.String(), want.String())
	case reflect.Slice, reflect.Array:
		if got.Len() != want.Len() {
			return false
		}
		for i := range got.Len() {
			if !sameMasked(got.Index(i), want.Index(i), masks) {
				return false
			}
		}
		return true
	case reflect.Map:
		if got.Len() != want.Len() {
			return false
		}
		for _, k := range got.MapKeys() {
			w := want.MapIndex(k)
			if !w.IsValid() || !sameMasked(got.MapIndex(k), w, masks) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := got.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				return reflect.DeepEqual(got.Interface(), want.Interface())
			}
		}
		for i := range t.NumField() {
			if !sameMasked(got.Field(i), want.Field(i), masks) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if got.IsNil() || want.IsNil() {
			return got.IsNil() == want.IsNil()
		}
		return sameMasked(got.Elem(), want.Elem(), masks)
	}
	return reflect.DeepEqual(got.Interface(), want.Interface())
}

// matchValueMask is matchMasked for a stored scenario's text, where the
// redactor masks a whole value: a mask stands for any text only after a
// name that reads as a secret's ("Time to first token: [redacted]", a
// mapping's value under that key). Any other mask is text the record
// holds too: one a scenario typed stands for nothing.
func matchValueMask(got, want string) bool {
	if got == want {
		return true
	}
	parts := strings.Split(want, redact.Mask)
	for _, p := range parts[:len(parts)-1] {
		if !redact.IsSecretName(strings.TrimRight(p, " :=\"'")) {
			return false
		}
	}
	return matchMasked(got, want)
}

// matchMasked reports whether got is want with each redact.Mask in want
// standing for any text.
func matchMasked(got, want string) bool {
	parts := strings.Split(want, redact.Mask)
	if len(parts) == 1 {
		return got == want
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	rest := got[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, parts[len(parts)-1])
}

// absentInOlder are the fields records written before them leave out (see
// schema.Method): absent, they are not compared.
var absentInOlder = []string{"method.engine_kind", "method.requests", "method.prefix_cache"}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

package review

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// enginePair is the engines two records ran for one arm ("of" names it,
// " of arm X"), or for every arm when both ran one engine ("of" empty).
type enginePair struct {
	old, nu schema.EngineInfo
	of      string
}

// enginePairs pairs the records' engines: one pair when neither record's
// arms ran more than one engine (as before arms could carry their own),
// else one per arm of either record, in the new record's arm order.
func enginePairs(old, nu *schema.Record) []enginePair {
	if len(old.Engines) == 0 && len(nu.Engines) == 0 {
		return []enginePair{{old: old.Engine, nu: nu.Engine}}
	}
	var out []enginePair
	for _, a := range armNames(old, nu) {
		out = append(out, enginePair{old: old.EngineOf(a), nu: nu.EngineOf(a), of: " of arm " + a})
	}
	return out
}

// engineBinarySHA is the sha256 of the binary that runs: the one a wrapper
// script names, else the command's own.
func engineBinarySHA(e schema.EngineInfo) string {
	if e.RealSHA256 != "" {
		return e.RealSHA256
	}
	return e.SHA256
}

// libraryChanges lists, by file name, the engine libraries whose sha256
// differs between the two records or that only one has: each with its
// old (new=false) or new hash; "" when they are the same.
func libraryChanges(old, nu []schema.FileSum, new bool) string {
	byName := func(fs []schema.FileSum) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			m[filepath.Base(f.Path)] = f.SHA256
		}
		return m
	}
	o, n := byName(old), byName(nu)
	names := map[string]bool{}
	for k := range o {
		names[k] = true
	}
	for k := range n {
		names[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(names)) {
		if o[k] == n[k] {
			continue
		}
		v := o[k]
		if new {
			v = n[k]
		}
		if v == "" {
			v = "absent"
		} else if len(v) > 12 {
			v = v[:12]
		}
		out = append(out, k+" "+v)
	}
	return strings.Join(out, ", ")
}

// loadedChanges compares, for every arm both records name, the libraries
// its engine loaded (schema.ArmsLoaded): what ran, where the candidates
// beside the binary (engine libraries) only say what was installed. It
// reports whether both records had loaded sets to compare; the
// candidates are then not compared.
func loadedChanges(old, nu *schema.Record, add func(what, a, b string)) bool {
	compared := false
	for _, a := range armNames(old, nu) {
		lo, ln := old.LoadedOf(a), nu.LoadedOf(a)
		if len(lo) == 0 || len(ln) == 0 {
			continue
		}
		compared = true
		add("libraries loaded by arm "+a, libraryChanges(lo, ln, false), libraryChanges(lo, ln, true))
	}
	return compared
}

package scenarios

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Change is one key whose value differs between two scenario texts.
type Change struct {
	// Path is the key's path, e.g. scenario.engine.request.max_tokens.
	Path string
	// Old and New are the values as one line of YAML, or "(absent)".
	Old, New string
}

func (c Change) String() string { return fmt.Sprintf("%s: %s → %s", c.Path, c.Old, c.New) }

// DiffYAML compares two scenario texts as YAML values, key by key:
// comments and formatting do not count. Each text must be at most
// MaxScenarioBytes.
func DiffYAML(a, b []byte) ([]Change, error) {
	var x, y any
	for _, p := range []struct {
		src []byte
		v   *any
	}{{a, &x}, {b, &y}} {
		if len(p.src) > MaxScenarioBytes {
			return nil, fmt.Errorf("scenario larger than %d bytes", MaxScenarioBytes)
		}
		if err := yaml.Unmarshal(p.src, p.v); err != nil {
			return nil, err
		}
	}
	var out []Change
	WalkDiff("scenario", x, y, func(p, o, n string) { out = append(out, Change{Path: p, Old: o, New: n}) })
	return out, nil
}

// WalkDiff calls emit for every path below at whose value differs between
// the decoded YAML values x and y, mappings compared key by key.
func WalkDiff(at string, x, y any, emit func(path, x, y string)) {
	xm, xok := x.(map[string]any)
	ym, yok := y.(map[string]any)
	if xok && yok {
		keys := map[string]bool{}
		for k := range xm {
			keys[k] = true
		}
		for k := range ym {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			WalkDiff(at+"."+k, xm[k], ym[k], emit)
		}
		return
	}
	xs, ys := flatYAML(x), flatYAML(y)
	if xs != ys {
		emit(at, xs, ys)
	}
}

// flatYAML writes a value as one line of YAML.
func flatYAML(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(string(b))
	if strings.Contains(s, "\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

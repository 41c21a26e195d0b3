package scenarios

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// keysDoc is the reference page that lists every scenario key.
const keysDoc = "../docs/reference/scenario-keys.md"

// acceptedKeys are the keys the loader accepts, derived the way decode's
// check walks a file: the yaml tags of Scenario's fields, through
// pointers, lists ("[]") and nested structs, stopping at mappings whose
// keys are the user's own (vars, env, expect). The types that accept more
// than one shape (Rounds, Cooldown) are structs with the same tags as
// their checkNode's known keys. Matrix expansion takes one more key out
// of every arm before the walk: TestScenarioKeysDocumented shows the walk
// refuses it and the loader takes it.
func acceptedKeys() []string {
	keys := []string{"arms[].matrix"}
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			walk(prefix+"[]", t.Elem())
			return
		case reflect.Struct:
		default:
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			key := join(prefix, tag)
			keys = append(keys, key)
			walk(key, f.Type)
		}
	}
	walk("", reflect.TypeOf(Scenario{}))
	slices.Sort(keys)
	return keys
}

// documentedKeys are the first cells of the rows of the page's key
// tables (those whose header starts with "| key |"), with their lines.
func documentedKeys(t *testing.T) map[string]int {
	t.Helper()
	b, err := os.ReadFile(keysDoc)
	if err != nil {
		t.Fatal(err)
	}
	cell := regexp.MustCompile("^\\| `([^`]+)` \\|")
	keys := map[string]int{}
	inTable := false
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "| key |"):
			inTable = true
		case !strings.HasPrefix(l, "|"):
			inTable = false
		case inTable:
			if m := cell.FindStringSubmatch(l); m != nil {
				if first, dup := keys[m[1]]; dup {
					t.Errorf("%s:%d: %s is listed again (first at line %d)", keysDoc, i+1, m[1], first)
				}
				keys[m[1]] = i + 1
			}
		}
	}
	return keys
}

// keyYAML is a scenario holding only key, its value empty: each list item
// on the way is a one-item list, each step a mapping.
func keyYAML(key string) []byte {
	var node any
	parts := strings.Split(key, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		name, list := strings.CutSuffix(parts[i], "[]")
		var v any = map[string]any{name: node}
		if i+1 < len(parts) && strings.HasSuffix(parts[i], "[]") {
			v = map[string]any{name: []any{node}}
		}
		if i+1 == len(parts) && list {
			v = map[string]any{name: []any{nil}}
		}
		node = v
	}
	b, _ := yaml.Marshal(node)
	return b
}

// unknownKeys are the loader's "unknown key" problems with a file that
// holds only key; prepare is as Parse has it (matrix expansion), or nil.
func unknownKeys(key string, prepare func(*problems, *yaml.Node)) []string {
	_, p := decode("keys.yaml", keyYAML(key), &Scenario{}, prepare)
	var out []string
	for _, e := range p.errs {
		if strings.Contains(e.Msg, "unknown key") {
			out = append(out, e.Error())
		}
	}
	return out
}

// Every key the loader accepts is in the reference's tables, and every key
// there is one the loader accepts: a new key without a line in the
// reference fails here, and so does a documented key the loader calls
// unknown.
func TestScenarioKeysDocumented(t *testing.T) {
	accepted := acceptedKeys()
	documented := documentedKeys(t)
	if len(accepted) < 100 {
		t.Fatalf("only %d keys derived from Scenario: %q", len(accepted), accepted)
	}
	for _, k := range accepted {
		if _, ok := documented[k]; !ok {
			t.Errorf("%s: the loader accepts %s, which no table lists", keysDoc, k)
		}
	}
	expand := func(p *problems, root *yaml.Node) { expandMatrix(p, root) }
	for k, line := range documented {
		if !slices.Contains(accepted, k) {
			t.Errorf("%s:%d: %s is documented, but the keys derived from Scenario do not hold it", keysDoc, line, k)
		}
		if errs := unknownKeys(k, expand); len(errs) > 0 {
			t.Errorf("%s:%d: the loader refuses %s: %s", keysDoc, line, k, strings.Join(errs, "; "))
		}
	}
	// The test can fail: a misspelled key is refused, and the matrix key
	// is the loader's only through matrix expansion.
	if errs := unknownKeys("engine.request.max_token", expand); len(errs) == 0 {
		t.Error("engine.request.max_token was not refused as unknown")
	}
	if errs := unknownKeys("arms[].matrix", nil); len(errs) == 0 {
		t.Error("arms[].matrix is accepted without matrix expansion: derive it from the struct tags instead")
	}
}

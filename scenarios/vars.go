package scenarios

import (
	"regexp"
	"sort"
)

// PortVar is the variable that stands for the loopback port chosen for each
// engine start; it is left in place by Expand and filled in by the engine.
const PortVar = "PORT"

var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Vars resolves ${NAME} references: the environment overrides the
// scenario's vars, so a CI job can point MODEL_DIR elsewhere without editing
// the file.
type Vars struct {
	file   map[string]string
	lookup func(string) (string, bool)
	used   map[string]KV
}

// NewVars returns a resolver over the scenario's vars and an environment
// lookup (os.LookupEnv in production).
func NewVars(file map[string]string, lookup func(string) (string, bool)) *Vars {
	return &Vars{file: file, lookup: lookup, used: map[string]KV{}}
}

// Expand replaces every ${NAME} in s except ${PORT}; it returns the names it
// could not resolve.
func (v *Vars) Expand(s string) (string, []string) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		name := varRef.FindStringSubmatch(m)[1]
		if name == PortVar {
			return m
		}
		if v.lookup != nil {
			if val, ok := v.lookup(name); ok {
				v.used[name] = KV{Key: name, Value: val, FromEnv: true}
				return val
			}
		}
		if val, ok := v.file[name]; ok {
			v.used[name] = KV{Key: name, Value: val}
			return val
		}
		missing = append(missing, name)
		return m
	})
	return out, missing
}

// Used returns the variables that were substituted, with the values used,
// sorted by name.
func (v *Vars) Used() []KV {
	out := make([]KV, 0, len(v.used))
	for _, kv := range v.used {
		out = append(out, kv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// KV is one name and value.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// FromEnv is set when the environment, not the scenario, gave it.
	FromEnv bool `json:"from_env,omitempty"`
}

// ExpandPort fills in ${PORT}.
func ExpandPort(s, port string) string {
	return varRef.ReplaceAllStringFunc(s, func(m string) string {
		if varRef.FindStringSubmatch(m)[1] == PortVar {
			return port
		}
		return m
	})
}

func sortStrings(s []string) { sort.Strings(s) }

// HasVarRef reports whether s holds a ${NAME} that a scenario replaces
// by a variable's value (${PORT}, the port chosen at each start, is not
// one): a command line given as it is (compare's) must not.
func HasVarRef(s string) bool {
	for _, m := range varRef.FindAllStringSubmatch(s, -1) {
		if m[1] != PortVar {
			return true
		}
	}
	return false
}

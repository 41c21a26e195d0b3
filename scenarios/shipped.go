package scenarios

import (
	"embed"
	"sort"
	"strings"
)

// shipped holds the scenario files that ship with decodebench, so that
// `decodebench run llamacpp-speculative` works from any folder.
//
//go:embed *.yaml
var shipped embed.FS

// Shipped lists the names of the shipped scenarios.
func Shipped() []string {
	entries, _ := shipped.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// ShippedSource returns a shipped scenario's bytes.
func ShippedSource(name string) ([]byte, error) {
	return shipped.ReadFile(strings.TrimSuffix(name, ".yaml") + ".yaml")
}

// ShippedScenario is a shipped scenario's name and the first line of its
// header comment, which says what it measures.
type ShippedScenario struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// ShippedList lists the shipped scenarios with their summaries.
func ShippedList() []ShippedScenario {
	var out []ShippedScenario
	for _, name := range Shipped() {
		src, _ := ShippedSource(name)
		out = append(out, ShippedScenario{Name: name, Summary: HeaderSummary(src)})
	}
	return out
}

// HeaderSummary returns the first line of a scenario's header comment (the
// comment lines it opens with), or "".
func HeaderSummary(src []byte) string {
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "#") {
			return ""
		}
		if t := strings.TrimSpace(strings.TrimPrefix(l, "#")); t != "" {
			return t
		}
	}
	return ""
}

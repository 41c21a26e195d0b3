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

package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// Every command's help goes to the console's writer, which redacts: help
// is not redacted (run --help showed --set KEY=[redacted], in two places),
// and every option's description starts in one column.
func TestHelpIsNotRedacted(t *testing.T) {
	for _, cmd := range newApp().Commands {
		var out bytes.Buffer
		app := newApp()
		app.Writer = termsafe.NewWriter(&out, consoleRedact)
		if err := app.Run([]string{"decodebench", cmd.Name, "--help"}); err != nil {
			t.Fatalf("%s --help: %v", cmd.Name, err)
		}
		help := out.String()
		if strings.Contains(help, "redacted") {
			t.Errorf("%s --help went through the redactor:\n%s", cmd.Name, help)
		}
		if cmd.Name == "run" && !regexp.MustCompile(`(?m)^ +--set PATH=VALUE +override`).MatchString(help) {
			t.Errorf("run --help does not show --set PATH=VALUE:\n%s", help)
		}
		col := -1
		for _, l := range strings.Split(help[strings.Index(help, "OPTIONS:"):], "\n") {
			m := regexp.MustCompile(`^ +-\S+(?: \S+)*? {2,}()`).FindStringSubmatchIndex(l)
			if m == nil {
				continue
			}
			if col == -1 {
				col = m[2]
			} else if m[2] != col {
				t.Errorf("%s --help: option descriptions start at columns %d and %d:\n%s", cmd.Name, col, m[2], help)
				break
			}
		}
	}
}

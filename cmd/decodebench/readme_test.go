package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mattn/go-shellwords"
	"gopkg.in/yaml.v3"

	"github.com/decodebench/decodebench/scenarios"
)

// readmeBlocks returns the README's fenced blocks of one language, each
// with its line.
func readmeBlocks(t *testing.T, lang string) (blocks []string, lines []int) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cur []string
	in, start := false, 0
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case !in && l == "```"+lang:
			in, start, cur = true, i+1, nil
		case in && l == "```":
			in = false
			blocks, lines = append(blocks, strings.Join(cur, "\n")+"\n"), append(lines, start)
		case in:
			cur = append(cur, l)
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("no %s blocks in the README", lang)
	}
	return blocks, lines
}

// Every YAML example of the README loads: the walked-through scenario as
// it is, and each fragment put into it (its keys replacing the scenario's,
// the engine's merged key by key; arms that are all negative controls
// added to the scenario's). A README example that no longer loads fails
// here, with its line.
func TestReadmeYAMLExamplesLoad(t *testing.T) {
	blocks, lines := readmeBlocks(t, "yaml")
	var base map[string]any
	if err := yaml.Unmarshal([]byte(blocks[0]), &base); err != nil || base["feature"] == nil {
		t.Fatalf("the README's first YAML block (line %d) is not the walked-through scenario: %v", lines[0], err)
	}
	anyVar := func(string) (string, bool) { return "x", true }
	for i, block := range blocks {
		var frag map[string]any
		if err := yaml.Unmarshal([]byte(block), &frag); err != nil {
			t.Errorf("README line %d: not YAML: %v", lines[i], err)
			continue
		}
		merged := map[string]any{}
		for k, v := range base {
			merged[k] = v
		}
		if i > 0 {
			for k, v := range frag {
				switch k {
				case "engine":
					e := map[string]any{}
					for ek, ev := range base["engine"].(map[string]any) {
						e[ek] = ev
					}
					for ek, ev := range v.(map[string]any) {
						e[ek] = ev
					}
					merged["engine"] = e
				case "arms":
					arms := v.([]any)
					controls := !slices.ContainsFunc(arms, func(a any) bool { return a.(map[string]any)["control"] != true })
					if controls {
						merged["arms"] = append(slices.Clone(base["arms"].([]any)), arms...)
						continue
					}
					merged["arms"] = arms
					names := map[string]bool{}
					for _, a := range arms {
						if n, ok := a.(map[string]any)["name"].(string); ok {
							names[n] = true
						}
					}
					if _, ok := frag["baseline"]; !ok {
						if n, ok := arms[0].(map[string]any)["name"].(string); ok {
							merged["baseline"] = n
						}
					}
					if _, ok := frag["counters"]; !ok {
						delete(merged, "counters")
						delete(merged, "exactness")
						merged["allow_unverified"] = "a README fragment"
					}
				default:
					merged[k] = v
				}
			}
			if e, ok := merged["engine"].(map[string]any); ok && e["kind"] == "command" {
				// A command engine's arms and counters are its own.
				merged["arms"] = []any{map[string]any{"name": "t2", "args": []any{"-t", "2"}}, map[string]any{"name": "t1", "args": []any{"-t", "1"}}}
				merged["baseline"] = "t2"
				delete(merged, "exactness")
				merged["metrics"] = map[string]any{"primary": "decode_tok_s"}
			}
			if _, ok := merged["exactness"]; ok && merged["baseline"] != "classic" {
				delete(merged, "exactness")
			}
		}
		src, err := yaml.Marshal(merged)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "readme.yaml")
		os.WriteFile(path, src, 0o644)
		if _, _, err := scenarios.Parse(path, dir, src, scenarios.Options{Offline: true, LookupEnv: anyVar}); err != nil {
			t.Errorf("README line %d: the example does not load:\n%v\n--- as merged:\n%s", lines[i], err, src)
		}
	}
}

// Every decodebench command line of the README's shell examples is one
// decodebench understands: its command and flags are known (placeholders
// such as RECORD.md stand for arguments). The commands that need neither
// an engine nor a record of the reader's run here for real.
func TestReadmeCommandLines(t *testing.T) {
	blocks, lines := readmeBlocks(t, "sh")
	app := newApp()
	record := "../../docs/benchmark_results/spec-draft-epyc-2026-11-29.md"
	other := "../../docs/benchmark_results/spec-draft-epyc-2026-11-29-2.md"
	comment := regexp.MustCompile(`\s+#.*$`)
	n := 0
	for i, block := range blocks {
		// Join continued lines.
		for _, l := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
			l = strings.TrimSpace(comment.ReplaceAllString(l, ""))
			_, cmd, ok := strings.Cut(" "+l, " decodebench ")
			if !ok || strings.HasPrefix(l, "#") {
				continue
			}
			n++
			args, err := shellwords.Parse(cmd)
			if err != nil {
				t.Errorf("README line %d: %s: %v", lines[i], cmd, err)
				continue
			}
			// Optional parts and alternatives as the README writes them:
			// [--watch 2s], [--markdown|--json].
			var words []string
			for _, a := range args {
				a = strings.Trim(a, "[]")
				a, _, _ = strings.Cut(a, "|")
				if a != "" && a != "..." && !strings.HasSuffix(a, "...") {
					words = append(words, a)
				}
			}
			if _, _, err := reorderArgs(app, append([]string{"decodebench"}, words...)); err != nil {
				t.Errorf("README line %d: decodebench %s: %v", lines[i], cmd, err)
			}
			real := func(argv ...string) {
				var out bytes.Buffer
				app := newApp()
				app.Writer, app.ErrWriter = &out, &out
				if code := exitCode(app.Run(append([]string{"decodebench"}, argv...))); code != 0 && code != 2 {
					t.Errorf("README line %d: decodebench %s exited %d:\n%s", lines[i], strings.Join(argv, " "), code, out.String())
				}
			}
			switch {
			case len(words) > 0 && words[0] == "check":
				real("check", record)
			case len(words) > 0 && words[0] == "diff":
				real("diff", record, other)
			case len(words) > 0 && words[0] == "export":
				real("export", "--format", "benchstat", record)
			case len(words) > 0 && words[0] == "identity":
				real("identity", record)
			case len(words) > 1 && words[0] == "run" && !slices.Contains(words, "--resume"):
				scenario := words[1]
				for _, w := range words[1:] {
					if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
						scenario = w
						break
					}
				}
				if strings.Contains(scenario, "/") || strings.ToUpper(scenario) == scenario {
					scenario = "llamacpp-speculative"
				}
				real("run", "--dry-run", scenario)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d decodebench command lines found in the README", n)
	}
}

package main

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-shellwords"
	"gopkg.in/yaml.v3"

	"github.com/decodebench/decodebench/scenarios"
)

// docRoot is the module's root, seen from this package's tests.
const docRoot = "../.."

// walkthroughDoc holds the walked-through scenario (its first YAML block)
// into which the docs' YAML fragments are merged.
const walkthroughDoc = "docs/guide/writing-scenarios.md"

// docFiles are the Markdown files whose examples and links are tested, as
// paths from the repository root: the README and every page under docs/
// but the records (docs/benchmark_results), which are real runs.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(docRoot, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(docRoot, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == "docs/benchmark_results" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("only %d documentation files: %q", len(files), files)
	}
	return files
}

func readDoc(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(docRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docBlock is one fenced block of a documentation file, with where it
// starts (the line after its fence).
type docBlock struct {
	file string
	line int
	text string
}

func (b docBlock) at() string { return b.file + ":" + strconv.Itoa(b.line) }

// fencedBlocks returns the file's fenced blocks of one language ("" for
// every language, with the fences' lines as they are), an indented
// fence's indentation taken off its lines.
func fencedBlocks(file, src, lang string) []docBlock {
	var out []docBlock
	var cur []string
	in, start, indent, fence := false, 0, "", ""
	for i, l := range strings.Split(src, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case !in && strings.HasPrefix(trimmed, "```"):
			in, start, indent, fence, cur = true, i+2, l[:len(l)-len(trimmed)], strings.TrimPrefix(trimmed, "```"), nil
		case in && trimmed == "```":
			in = false
			if lang == "" || fence == lang {
				out = append(out, docBlock{file, start, strings.Join(cur, "\n") + "\n"})
			}
		case in:
			cur = append(cur, strings.TrimPrefix(l, indent))
		}
	}
	return out
}

// withoutFences is a documentation file with its fenced blocks blanked
// (their lines kept).
func withoutFences(file, src string) string {
	for _, b := range fencedBlocks(file, src, "") {
		src = strings.Replace(src, b.text, strings.Repeat("\n", strings.Count(b.text, "\n")), 1)
	}
	return src
}

// docBlocks returns every documentation file's fenced blocks of lang.
func docBlocks(t *testing.T, lang string) []docBlock {
	t.Helper()
	var out []docBlock
	for _, f := range docFiles(t) {
		out = append(out, fencedBlocks(f, readDoc(t, f), lang)...)
	}
	if len(out) == 0 {
		t.Fatalf("no %s blocks in the documentation", lang)
	}
	return out
}

// Every YAML example of the README and docs/ loads. A block with a
// feature is a whole scenario and loads as it is; any other is a fragment,
// put into the walked-through scenario of the scenario guide (its keys
// replacing the scenario's, the engine's merged key by key; arms that are
// all negative controls added to the scenario's). An example that no
// longer loads fails here, with its file and line.
func TestDocYAMLExamplesLoad(t *testing.T) {
	walk := fencedBlocks(walkthroughDoc, readDoc(t, walkthroughDoc), "yaml")
	var base map[string]any
	if len(walk) == 0 || yaml.Unmarshal([]byte(walk[0].text), &base) != nil || base["feature"] == nil {
		t.Fatalf("%s: the first YAML block is not the walked-through scenario", walkthroughDoc)
	}
	anyVar := func(string) (string, bool) { return "x", true }
	blocks := docBlocks(t, "yaml")
	if len(blocks) < 10 {
		t.Errorf("only %d YAML blocks in the documentation", len(blocks))
	}
	for _, block := range blocks {
		var frag map[string]any
		if err := yaml.Unmarshal([]byte(block.text), &frag); err != nil {
			t.Errorf("%s: not YAML: %v", block.at(), err)
			continue
		}
		merged := frag
		if frag["feature"] == nil {
			merged = mergeFragment(base, frag)
		}
		src, err := yaml.Marshal(merged)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "doc.yaml")
		os.WriteFile(path, src, 0o644)
		if _, _, err := scenarios.Parse(path, dir, src, scenarios.Options{Offline: true, LookupEnv: anyVar}); err != nil {
			t.Errorf("%s: the example does not load:\n%v\n--- as loaded:\n%s", block.at(), err, src)
		}
	}
}

// mergeFragment puts a YAML fragment of the docs into the walked-through
// scenario base.
func mergeFragment(base, frag map[string]any) map[string]any {
	merged := map[string]any{}
	for k, v := range base {
		merged[k] = v
	}
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
			if _, ok := frag["baseline"]; !ok {
				if n, ok := arms[0].(map[string]any)["name"].(string); ok {
					merged["baseline"] = n
				}
			}
			if _, ok := frag["counters"]; !ok {
				delete(merged, "counters")
				delete(merged, "exactness")
				merged["allow_unverified"] = "a documentation fragment"
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
	return merged
}

// docCommand is one decodebench command line shown in the docs: a line
// of a sh block (continued lines joined), or a code span of the prose.
type docCommand struct {
	at   string
	line string // after "decodebench "
}

// docCommands returns every decodebench command line of the docs.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	comment := regexp.MustCompile(`\s+#.*$`)
	var out []docCommand
	for _, block := range docBlocks(t, "sh") {
		lines := strings.Split(block.text, "\n")
		for i := 0; i < len(lines); i++ {
			// Join continued lines; the command is at its first.
			at, l := block.line+i, lines[i]
			for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, "\\") + " " + lines[i]
			}
			l = strings.TrimSpace(comment.ReplaceAllString(l, ""))
			_, cmd, ok := strings.Cut(" "+l, " decodebench ")
			if ok && !strings.HasPrefix(l, "#") {
				out = append(out, docCommand{block.file + ":" + strconv.Itoa(at), cmd})
			}
		}
	}
	span := regexp.MustCompile("`decodebench\\s([^`]+)`")
	for _, f := range docFiles(t) {
		src := withoutFences(f, readDoc(t, f))
		for _, m := range span.FindAllStringSubmatchIndex(src, -1) {
			line := 1 + strings.Count(src[:m[0]], "\n")
			out = append(out, docCommand{f + ":" + strconv.Itoa(line), strings.Join(strings.Fields(src[m[2]:m[3]]), " ")})
		}
	}
	return out
}

// commandWords are a command line's words as decodebench would get them:
// the optional parts and alternatives the docs write ([--watch 2s],
// [--markdown|--json]) taken as given, placeholders (RECORD.md, DIR)
// standing for arguments.
func commandWords(cmd string) ([]string, error) {
	args, err := shellwords.Parse(cmd)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, a := range args {
		a = strings.Trim(a, "[]")
		a, _, _ = strings.Cut(a, "|")
		if a != "" && a != "..." && !strings.HasSuffix(a, "...") {
			words = append(words, a)
		}
	}
	return words, nil
}

// Every decodebench command line of the README and docs/ (their sh blocks
// and the code spans of their prose) is one decodebench understands: its
// command and flags are known (placeholders such as RECORD.md stand for
// arguments). The commands that need neither an engine nor a record of
// the reader's own run here for real, on the committed records and the
// shipped scenarios, each distinct one once.
func TestDocCommandLines(t *testing.T) {
	app := newApp()
	record := filepath.Join(docRoot, "docs/benchmark_results/spec-draft-epyc-2026-11-29.md")
	other := filepath.Join(docRoot, "docs/benchmark_results/spec-draft-epyc-2026-11-29-2.md")
	shipped := func(words []string) string {
		for _, w := range words {
			if slices.Contains(scenarios.Shipped(), w) {
				return w
			}
		}
		return "llamacpp-speculative" // the reader's own scenario: the demo's stands in
	}
	ran := map[string]bool{}
	cmds := docCommands(t)
	for _, c := range cmds {
		words, err := commandWords(c.line)
		if err != nil {
			t.Errorf("%s: decodebench %s: %v", c.at, c.line, err)
			continue
		}
		if _, _, err := reorderArgs(app, append([]string{"decodebench"}, words...)); err != nil {
			t.Errorf("%s: decodebench %s: %v", c.at, c.line, err)
			continue
		}
		real := func(argv ...string) {
			key := strings.Join(argv, " ")
			if ran[key] {
				return
			}
			ran[key] = true
			var out bytes.Buffer
			app := newApp()
			app.Writer, app.ErrWriter = &out, &out
			if code := exitCode(app.Run(append([]string{"decodebench"}, argv...))); code != 0 && code != 2 {
				t.Errorf("%s: decodebench %s (for decodebench %s) exited %d:\n%s", c.at, key, c.line, code, out.String())
			}
		}
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "check":
			real("check", record)
		case "diff":
			real("diff", record, other)
		case "export":
			real("export", "--format", "benchstat", record)
		case "identity":
			real("identity", record)
		case "history":
			real("history", "--dir", filepath.Join(docRoot, "docs/benchmark_results"), "spec-draft")
		case "site":
			real("site", "--no-cache", "--out", filepath.Join(t.TempDir(), "site"), filepath.Join(docRoot, "docs/benchmark_results"))
		case "regime":
			real("regime", "--no-cache", "--dir", filepath.Join(docRoot, "docs/benchmark_results"), "identity-chaotic")
		case "gather":
			real("gather", "--no-cache", "--github-summary=false", "--dir", filepath.Join(t.TempDir(), "records"), record)
		case "validate":
			real("validate", shipped(words))
		case "presets":
			real("presets")
		case "machine":
			if slices.Contains(words, "--json") {
				real("machine", "--json")
			} else {
				real("machine")
			}
		case "scenarios":
			if len(words) > 1 && words[1] == "show" {
				real("scenarios", "show", shipped(words))
			} else {
				real("scenarios")
			}
		case "init":
			argv := []string{"init"}
			if i := slices.Index(words, "--preset"); i >= 0 && i+1 < len(words) && slices.Contains(scenarios.PresetNames(), words[i+1]) {
				argv = append(argv, "--preset", words[i+1])
			}
			real(append(argv, filepath.Join(t.TempDir(), "mine.yaml"))...)
		case "run":
			if len(words) > 1 && !slices.Contains(words, "--resume") {
				real("run", "--dry-run", shipped(words))
			}
		}
	}
	if len(cmds) < 40 {
		t.Errorf("only %d decodebench command lines found in the documentation", len(cmds))
	}
	for _, must := range []string{"check", "diff", "export", "identity", "history", "regime", "gather", "site", "validate", "presets", "machine", "scenarios", "init", "run"} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(ran)), func(k string) bool { return strings.HasPrefix(k, must+" ") || k == must }) {
			t.Errorf("no documented %s command ran for real", must)
		}
	}
}

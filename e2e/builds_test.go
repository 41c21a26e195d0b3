package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/schema"
)

// Arms that carry their own engine (arms[].engine), on the real
// llama-server: builds are stood in for by copies of the installed build,
// which are distinct files of the same build.

// copyBuild copies the llama-server build under test into dir and returns
// the path of the copy's entry point, a distinct file of the same build.
// The installer's llama-server is a wrapper script that runs the real
// binary through a private loader and libraries: the copy holds its own
// copy of the real binary too. A wrapper that names its files relative to
// itself ("../root/usr/bin/llama-server") is copied as is beside a copy
// of the binary, the prefix's libraries linked; one that names them by
// absolute path is rewritten to name the copy. extra arguments are
// appended after the caller's (llama-server takes the last -t given),
// which makes the wrapper a different file.
func copyBuild(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	src, err := os.ReadFile(llamaServer)
	if err != nil {
		t.Fatal(err)
	}
	tail := ""
	for _, a := range extra {
		tail += " " + shellQuote(a)
	}
	withTail := func(script string) string {
		if tail == "" {
			return script
		}
		out := strings.Replace(script, `"$@"`, `"$@"`+tail, 1)
		if out == script {
			t.Fatalf("no \"$@\" in the wrapper %s to append %s to", llamaServer, tail)
		}
		return out
	}
	wrapper := filepath.Join(dir, "bin", "llama-server")
	mkdir(t, filepath.Dir(wrapper))
	m := regexp.MustCompile(regexp.QuoteMeta(engine.RealBinaryMarker) + `(.+)`).FindSubmatch(src)
	switch {
	case m == nil: // a plain binary: wrap a copy of it
		copied := filepath.Join(dir, "llama-server.bin")
		copyFile(t, llamaServer, copied)
		script := fmt.Sprintf("#!/bin/sh\n%s%s\nexec %s \"$@\"%s\n", engine.RealBinaryMarker, copied, shellQuote(copied), tail)
		writeExec(t, wrapper, script)
	case filepath.IsAbs(strings.TrimSpace(string(m[1]))):
		real := strings.TrimSpace(string(m[1]))
		copied := filepath.Join(dir, "llama-server.bin")
		copyFile(t, real, copied)
		writeExec(t, wrapper, withTail(strings.ReplaceAll(string(src), real, copied)))
	default: // relative to the wrapper: the same layout under dir
		orig, _ := filepath.EvalSymlinks(llamaServer)
		prefix := filepath.Dir(filepath.Dir(orig))
		rel := strings.TrimSpace(string(m[1]))
		real := filepath.Join(filepath.Dir(orig), rel)
		copied := filepath.Join(filepath.Dir(wrapper), rel)
		mkdir(t, filepath.Dir(copied))
		copyFile(t, real, copied)
		// Everything else of the prefix (loader, libraries) is shared.
		entries, err := os.ReadDir(filepath.Join(prefix, "root", "usr"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != "bin" {
				if err := os.Symlink(filepath.Join(prefix, "root", "usr", e.Name()), filepath.Join(dir, "root", "usr", e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		writeExec(t, wrapper, withTail(string(src)))
	}
	// The copy must really run.
	out, err := exec.Command(wrapper, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "version") {
		t.Fatalf("the copied build does not run: %v\n%s", err, out)
	}
	return wrapper
}

// heavyBuild is a copy of the build under test whose wrapper runs it on a
// synthetic model of three times the layers (llama-server takes the last -m): a
// known slowdown that no background load reverses, because it is work, not
// time. Fewer threads is no such thing (with one of two cores busy,
// llama-server decoded 3x faster with -t 1 than with -t 2), and neither is
// time held stopped (cmd/slowdown, 40%: on a host with more runnable
// threads than cores the stopped engine decoded 1.6x faster, each resume
// served first by the scheduler).
func heavyBuild(t *testing.T, dir string) string {
	t.Helper()
	models := filepath.Join(dir, "models")
	out, err := exec.Command(synthgguf, "-out", models, "-layers", "24").CombinedOutput()
	if err != nil {
		t.Fatalf("synthgguf: %v\n%s", err, out)
	}
	return copyBuild(t, dir, "-m", filepath.Join(models, "target.gguf"))
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeExec(t *testing.T, path, script string) {
	t.Helper()
	if err := execfile.Write(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// twinBuild makes a byte-identical copy of the build under test in dir: a
// wrapper that names its files by absolute path is copied alone (it runs
// the same binary); one that names them relative to itself is copied with
// a copy of the binary, as copyBuild does.
func twinBuild(t *testing.T, dir string) string {
	t.Helper()
	src, err := os.ReadFile(llamaServer)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(engine.RealBinaryMarker) + `(.+)`).FindSubmatch(src)
	if m != nil && !filepath.IsAbs(strings.TrimSpace(string(m[1]))) {
		return copyBuild(t, dir)
	}
	mkdir(t, dir)
	twin := filepath.Join(dir, "llama-server")
	copyFile(t, llamaServer, twin)
	return twin
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := execfile.Copy(from, to, 0o755); err != nil {
		t.Fatal(err)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// buildNumber is the installed build's number as llama-server's GET /props
// build_info starts ("b11669"), read from its --version.
func buildNumber(t *testing.T) string {
	t.Helper()
	out, _ := exec.Command(llamaServer, "--version").CombinedOutput()
	m := regexp.MustCompile(`build (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no build number in llama-server --version:\n%s", out)
	}
	return "b" + string(m[1])
}

// buildArms are a base arm on the installed build and arms whose engine is
// another file: each arm's command is the scenario engine's (with threads
// for -t, as scenario.Threads gives the base arm) with its own binary.
func buildArms(tag string, threads int, arms map[string]string, order ...string) string {
	var b strings.Builder
	b.WriteString("  - name: base\n    args: [\"--spec-type\", \"none\"]\n")
	for _, name := range order {
		control := ""
		if name == "copy" {
			control = "\n    control: true"
		}
		fmt.Fprintf(&b, `  - name: %s%s
    args: ["--spec-type", "none"]
    engine:
      command: [%q, "-m", "${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "${PORT}",
                "--metrics", "-t", "%d", "-np", "1", "-c", "512", "--alias", %q]
`, name, control, arms[name], threads, tag)
	}
	return b.String()
}

// buildCounter reads the build every run was served by from GET /props.
func buildCounter(build string, arms ...string) string {
	var ex []string
	for _, a := range append([]string{"base"}, arms...) {
		ex = append(ex, fmt.Sprintf("%s: %q", a, "== "+build))
	}
	return fmt.Sprintf("  - name: build\n    props: build_info\n    capture: '^(b[0-9]+)'\n    expect: {%s}\n", strings.Join(ex, ", "))
}

// One campaign, three engines: the installed build, a copy of it (distinct
// files of the same build, so a negative control: no significant
// difference), and a copy whose wrapper runs it on a model of three times the
// layers (found slower, under any background load). The record carries
// three engine identities and a per-run build counter read from the
// servers, and passes check.
//
// Every engine decodes on one thread: two threads on a 2-core host whose
// other core is busy spin at ggml's barriers waiting for each other, and
// their speed follows the scheduler, not the work.
func TestArmEnginesCopyAndHeavier(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	build := buildNumber(t)
	tg := tag(t)
	arms := map[string]string{
		"copy": copyBuild(t, filepath.Join(dir, "copy")),
		"slow": heavyBuild(t, filepath.Join(dir, "slow")),
	}
	campaign := func() result {
		return run(t, scenario{
			Feature:  "e2e-builds",
			Tag:      tg,
			Arms:     buildArms(tg, 1, arms, "copy", "slow"),
			Threads:  1,
			Baseline: "base",
			Counters: buildCounter(build, "copy", "slow"),
			// The same build in every arm: no counter can tell them apart,
			// which is the point of the copy arm; the slow arm differs by
			// its wrapper, not by its build.
			Extra:     "allow_unverified: \"every arm runs the same build; the arms differ by file, and the slow arm by its model\"\n",
			Rounds:    5,
			MaxTokens: 64,
			// Its outcome is statistical: the pause between runs it
			// always had.
			Cooldown: "200ms",
		})
	}
	res := campaign()
	// A negative control comes out significant in about alpha of the
	// campaigns whatever the engine does; a user who sees it runs the
	// campaign again, and so does this test, once. Twice in a row (about
	// 0.25% by chance) is a difference between the files.
	if copySignificant(res) {
		t.Logf("the copy arm came out significant; running the campaign again, as a user would after a negative control's false alarm")
		res = campaign()
	}
	rec := res.record
	if rec == nil {
		t.Fatalf("no record (exit %d)", res.code)
	}
	if rec.Schema != schema.SchemaV5 || len(rec.Engines) != 3 {
		t.Fatalf("want a v5 record with three engines, got %s with %d", rec.Schema, len(rec.Engines))
	}
	paths := map[string]bool{}
	for _, e := range rec.Engines {
		if len(e.Arms) != 1 || e.SHA256 == "" || e.Version == "" {
			t.Errorf("engine identity incomplete: %+v", e)
		}
		paths[e.Path] = true
	}
	if len(paths) != 3 || rec.Engine.Path != rec.Engines[0].Path || rec.Engines[0].Arms[0] != "base" {
		t.Errorf("engines: want three paths, the baseline's first: %+v", rec.Engines)
	}
	for _, want := range []string{"The arms ran 3 engines:", "Engine 2, run by arm `copy`:", "Engine 3, run by arm `slow`:", "| build (expected) |"} {
		if !strings.Contains(res.md, want) {
			t.Errorf("record lacks %q", want)
		}
	}
	failed := 0
	for _, r := range rec.Runs {
		if !r.OK() {
			failed++
			continue
		}
		if c := r.Counters["build"]; c.Text != build {
			t.Errorf("run %d (%s): build counter %+v, want %s", r.Seq, r.Arm, c, build)
		}
	}
	if failed > 0 {
		t.Fatalf("%d runs failed", failed)
	}
	dec, ok := rec.Result(schema.DecodeTokS)
	if !ok {
		t.Fatal("no decode_tok_s result")
	}
	for _, a := range dec.Arms {
		c := a.Comparison
		switch a.Arm {
		case "copy":
			if c == nil || c.Significant {
				t.Errorf("a copy of the same build: want no significant difference, got %+v", c)
			}
		case "slow":
			if c == nil || !c.Significant || c.Ratio >= 0.9 {
				t.Errorf("three times the layers: want significantly slower, got %+v", c)
			}
		}
	}
	out, err := exec.Command(binary, "check", res.path).CombinedOutput()
	if err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
}

// copySignificant says whether the copy arm's decode rate came out
// significantly different from the baseline's.
func copySignificant(res result) bool {
	if res.record == nil {
		return false
	}
	dec, ok := res.record.Result(schema.DecodeTokS)
	if !ok {
		return false
	}
	for _, a := range dec.Arms {
		if a.Arm == "copy" && a.Comparison != nil && a.Comparison.Significant {
			return true
		}
	}
	return false
}

// Two arms that run the same thing are refused, whether the command lines
// are the same (at load) or the binaries are different files of the same
// content (at start, by hash); nothing is written and no engine starts.
// A negative control is allowed.
func TestArmEnginesIdenticalRefused(t *testing.T) {
	idleParallel(t)
	needEngine(t)
	dir := t.TempDir()
	twin := twinBuild(t, filepath.Join(dir, "same"))
	for _, tc := range []struct {
		name, bin, want string
	}{
		{"same command", llamaServer, `arm "twin" runs exactly what arm "base" runs`},
		{"byte-identical file", twin, "byte-identical binaries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := tag(t)
			bin := tc.bin
			if bin == llamaServer {
				bin = "${LLAMA_SERVER}"
			}
			res := run(t, scenario{
				Feature:   "e2e-twins",
				Tag:       tg,
				Arms:      buildArms(tg, 2, map[string]string{"twin": bin}, "twin"),
				Baseline:  "base",
				Counters:  buildCounter("b0", "twin"),
				Extra:     "allow_unverified: twins\n",
				Rounds:    2,
				MaxTokens: 8,
			})
			if res.code != 1 || res.record != nil || !strings.Contains(res.stderr, tc.want) || !strings.Contains(res.stderr, "control: true") {
				t.Errorf("want exit 1 saying %q and no record; got exit %d", tc.want, res.code)
			}
		})
	}
}

// A binary replaced while the campaign runs fails the first run that
// would have started it: the run does not measure an engine the record
// does not identify.
func TestArmEngineReplacedMidCampaign(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	// A wrapper of its own ("-t 2" again changes nothing it runs), so that
	// head is not a byte-identical twin of base.
	head := copyBuild(t, filepath.Join(dir, "head"), "-t", "2")
	tg := tag(t)
	p := start(t, scenario{
		Feature:   "e2e-rebuilt",
		Tag:       tg,
		Arms:      buildArms(tg, 2, map[string]string{"head": head}, "head"),
		Baseline:  "base",
		Counters:  buildCounter(buildNumber(t), "head"),
		Extra:     "allow_unverified: same build\n",
		Rounds:    3,
		MaxTokens: 16,
		// The pause it always had between run 1, whose measuring line
		// starts the replacement, and run 2, which must see it.
		Cooldown: "200ms",
	})
	p.waitFor(t, "run 1/6 base: measuring", 90*time.Second)
	// "Rebuild" head underneath the campaign: same size class, new content.
	b, err := os.ReadFile(head)
	if err != nil {
		t.Fatal(err)
	}
	tmp := head + ".new"
	if err := execfile.Write(tmp, append(b, []byte("# rebuilt\n")...), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, head); err != nil {
		t.Fatal(err)
	}
	res := p.wait(t)
	if res.code != 1 || res.record == nil || res.record.Verdict != schema.Failed {
		t.Fatalf("want exit 1 with a FAILED record, got exit %d", res.code)
	}
	var failed []schema.Run
	for _, r := range res.record.Runs {
		if !r.OK() {
			failed = append(failed, r)
		}
	}
	if len(failed) != 1 || failed[0].Arm != "head" || !strings.Contains(failed[0].Error, "changed since the campaign started") {
		t.Fatalf("want the head arm's first run failed for the changed binary, got %+v", failed)
	}
	if !strings.Contains(res.md, "changed since the campaign started") {
		t.Error("the record does not say why the run failed")
	}
}

// A link to the head build moved while the campaign runs (as `brew
// upgrade` moves one), to another build: the run that would have started
// it fails, naming what the command now executes, though the file the
// campaign identified is untouched.
func TestArmEngineLinkMovedMidCampaign(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	v1 := copyBuild(t, filepath.Join(dir, "v1"), "-t", "2")
	v2 := copyBuild(t, filepath.Join(dir, "v2"), "-t", "1")
	head := filepath.Join(dir, "llama-server")
	if err := os.Symlink(v1, head); err != nil {
		t.Fatal(err)
	}
	tg := tag(t)
	p := start(t, scenario{
		Feature:   "e2e-link-moved",
		Tag:       tg,
		Arms:      buildArms(tg, 2, map[string]string{"head": head}, "head"),
		Baseline:  "base",
		Counters:  buildCounter(buildNumber(t), "head"),
		Extra:     "allow_unverified: same build\n",
		Rounds:    3,
		MaxTokens: 16,
		Cooldown:  "200ms",
	})
	p.waitFor(t, "run 1/6 base: measuring", 90*time.Second)
	if err := os.Symlink(v2, head+".new"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(head+".new", head); err != nil {
		t.Fatal(err)
	}
	res := p.wait(t)
	if res.code != 1 || res.record == nil || res.record.Verdict != schema.Failed {
		t.Fatalf("want exit 1 with a FAILED record, got exit %d", res.code)
	}
	var failed []schema.Run
	for _, r := range res.record.Runs {
		if !r.OK() {
			failed = append(failed, r)
		}
	}
	if len(failed) != 1 || failed[0].Arm != "head" || !strings.Contains(failed[0].Error, "now executes "+v2) {
		t.Fatalf("want the head arm's first run failed for the moved link, got %+v", failed)
	}
}

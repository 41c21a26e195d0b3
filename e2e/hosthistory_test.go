package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The machine's own history as a sentinel, on the real llama-server: the
// records folder holds five real campaigns of history/testdata/layers.yaml
// on this VM's 8-layer synthetic model (history/testdata/layers), one of
// them since changed (it fails check); a campaign of the same scenario,
// hardware slug and meaning runs on a 16-layer model, about half the
// decode rate, as a host that runs slow would. The run's console and the
// record warn that this host ran below its own history, naming the four
// records compared (the changed one left out, and said so); the
// interleaved verdict is untouched, and the record passes check.
func TestHostHistorySentinel(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	recs := filepath.Join(dir, "records")
	src := filepath.Join("..", "history", "testdata", "layers")
	stems := []string{"history-layers-epyc-2026-12-02", "history-layers-epyc-2026-12-02-2", "history-layers-epyc-2026-12-02-3",
		"history-layers-epyc-2026-12-02-4", "history-layers-epyc-2026-12-02-5"}
	for _, s := range stems {
		b, err := os.ReadFile(filepath.Join(src, s+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(recs, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(recs, s+".md"), b, 0o644)
		if err := os.CopyFS(filepath.Join(recs, "data", s), os.DirFS(filepath.Join(src, "data", s))); err != nil {
			t.Fatal(err)
		}
	}
	runs := filepath.Join(recs, "data", stems[2], "runs.jsonl")
	b, _ := os.ReadFile(runs)
	os.WriteFile(runs, []byte(strings.Replace(string(b), `"decode_tok_s":`, `"decode_tok_s":9`, 1)), 0o644)

	models := filepath.Join(dir, "m16")
	if out, err := exec.Command(synthgguf, "-out", models, "-layers", "16").CombinedOutput(); err != nil {
		t.Fatalf("synthgguf: %v\n%s", err, out)
	}
	scenario, _ := filepath.Abs(filepath.Join("..", "history", "testdata", "layers.yaml"))
	p := &proc{dir: dir, out: recs, lines: make(chan string, 1000), done: make(chan struct{})}
	p.launch(t, models, "run", "--out", recs, "--hw", "epyc", scenario)
	p.cmd.Env = append(p.cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	res := p.wait(t)
	if res.code != 2 {
		t.Fatalf("exit %d, want 2 (UNVERIFIED: the scenario's copy arm has no counter)", res.code)
	}
	if !strings.Contains(res.stderr, "host history: "+filepath.Join(recs, stems[2]+".md")+" left out: it fails check: Raw runs: runs.jsonl has sha256") {
		t.Errorf("the changed record was not named as left out:\n%s", res.stderr)
	}
	matches, _ := filepath.Glob(filepath.Join(recs, "history-layers-epyc-2026-1[2-9]-*.md"))
	var path string
	for _, m := range matches {
		if !strings.HasPrefix(filepath.Base(m), "history-layers-epyc-2026-12-02") {
			path = m
		}
	}
	if path == "" {
		t.Fatalf("no new record among %v", matches)
	}
	rec, err := recorder.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	h := rec.Method.History
	if h == nil || len(h.Records) != 4 || h.Records[0].Record != stems[4] || h.Records[3].Record != stems[0] {
		t.Fatalf("history %+v, want the four that pass check, newest first", h)
	}
	var w schema.HostOffHistory
	for _, r := range rec.Analysis.Warnings {
		if x, ok := r.(schema.HostOffHistory); ok {
			w = x
		}
	}
	if w.Records != 4 || !w.Worse || w.Change > -0.2 || w.OtherEngine != 0 {
		t.Fatalf("warning %+v, want the baseline well below its four earlier records", w)
	}
	t.Logf("baseline %.1f tok/s against a median of %.1f (band %.1f to %.1f): %+.1f%%", w.Value, w.Median, w.Lo, w.Hi, 100*w.Change)
	if !strings.Contains(res.stdout, "  warning: This host ran below its own history by") || !strings.Contains(res.stdout, "compared: `"+stems[4]+"`, `"+stems[3]+"`, `"+stems[1]+"`, `"+stems[0]+"`") {
		t.Errorf("the console does not warn, naming the records:\n%s", res.stdout)
	}
	md, _ := os.ReadFile(path)
	if !strings.Contains(string(md), "> **Warning:** This host ran below its own history by") {
		t.Error("the record does not warn")
	}
	if rec.Verdict != schema.Unverified {
		t.Errorf("verdict %s", rec.Verdict)
	}
	if out, err := exec.Command(binary, "check", "--no-cache", path).CombinedOutput(); err != nil {
		t.Errorf("the record fails check: %v\n%s", err, out)
	}
}

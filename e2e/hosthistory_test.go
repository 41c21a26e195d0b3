package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The machine's own history as a sentinel, on the real llama-server: the
// records folder holds five real campaigns of history/testdata/layers.yaml
// from one VM, one of them since changed (it fails check); a campaign of
// the same scenario, hardware slug and meaning runs here on the 8-layer
// synthetic model. The histories are another machine's, so the test first
// measures this host's decode rate on that model (probeDecodeRate) and
// picks the history this host is far from: the VM's 8-layer records (87
// tok/s) where this host runs the model slower than 66 tok/s (their
// geometric middle with the 16-layer records' 50), as a host that runs
// slow would; its 16-layer records otherwise, as a host that runs faster
// than its history (a throttle lifted, a new machine under an old slug).
// A fixed model on a host of unknown speed is no sentinel test: a 16-layer
// run against the 8-layer history was 37% below it on one EPYC VM and
// 11% below on the next, where the 16-layer model sat at the edge of the
// cache (52 to 83 tok/s). The run's console and the record warn that this
// host ran off its own history in the direction measured, naming the four
// records compared (the changed one left out, and said so); the
// interleaved verdict is untouched, and the record passes check.
func TestHostHistorySentinel(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	recs := filepath.Join(dir, "records")
	src := filepath.Join("..", "history", "testdata", "layers")
	rate := probeDecodeRate(t, modelDir)
	slow := rate < 66
	// Five records in the order they ran; the third is changed.
	stems := []string{"history-layers-epyc-2026-12-02-6", "history-layers-epyc-2026-12-02-7", "history-layers-epyc-2026-12-02-8",
		"history-layers-epyc-2026-12-02-9", "history-layers-epyc-2026-12-02-10"}
	if slow {
		stems = []string{"history-layers-epyc-2026-12-02", "history-layers-epyc-2026-12-02-2", "history-layers-epyc-2026-12-02-3",
			"history-layers-epyc-2026-12-02-4", "history-layers-epyc-2026-12-02-5"}
	}
	side := "below"
	if !slow {
		side = "above"
	}
	t.Logf("this host decodes the 8-layer model at %.1f tok/s: compared with the %s records", rate, map[bool]string{true: "8-layer", false: "16-layer"}[slow])
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

	scenario, _ := filepath.Abs(filepath.Join("..", "history", "testdata", "layers.yaml"))
	p := &proc{dir: dir, out: recs, lines: make(chan string, 1000), done: make(chan struct{})}
	p.launch(t, modelDir, "run", "--out", recs, "--hw", "epyc", scenario)
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
	off := w.Value < w.Lo
	if !slow {
		off = w.Value > w.Hi
	}
	if w.Records != 4 || w.Worse != slow || !off || w.OtherEngine != 0 {
		t.Fatalf("warning %+v, want the baseline %s the band of its four earlier records", w, side)
	}
	t.Logf("baseline %.1f tok/s against a median of %.1f (band %.1f to %.1f): %+.1f%%", w.Value, w.Median, w.Lo, w.Hi, 100*w.Change)
	if !strings.Contains(res.stdout, "  warning: This host ran "+side+" its own history by") || !strings.Contains(res.stdout, "compared: `"+stems[4]+"`, `"+stems[3]+"`, `"+stems[1]+"`, `"+stems[0]+"`") {
		t.Errorf("the console does not warn, naming the records:\n%s", res.stdout)
	}
	md, _ := os.ReadFile(path)
	if !strings.Contains(string(md), "> **Warning:** This host ran "+side+" its own history by") {
		t.Error("the record does not warn")
	}
	if rec.Verdict != schema.Unverified {
		t.Errorf("verdict %s", rec.Verdict)
	}
	if out, err := exec.Command(binary, "check", "--no-cache", path).CombinedOutput(); err != nil {
		t.Errorf("the record fails check: %v\n%s", err, out)
	}
}

// probeDecodeRate is the decode rate of the target model in dir on this
// host, as the layers scenario's engine runs it (llama-server, one thread,
// the scenario's request): the median of three requests after one to warm
// up, each rate llama-server's own timings.predicted_per_second.
func probeDecodeRate(t *testing.T, dir string) float64 {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	id := tag(t)
	cmd := exec.Command(llamaServer, "-m", filepath.Join(dir, "target.gguf"), "--host", "127.0.0.1", "--port", port,
		"-t", "1", "-np", "1", "-c", "512", "--alias", id)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		assertNoEngineLeft(t, id)
	}()
	base := "http://127.0.0.1:" + port
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("llama-server on %s not ready after 60s: %v", filepath.Join(dir, "target.gguf"), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var rates []float64
	for i := range 4 {
		resp, err := http.Post(base+"/completion", "application/json",
			strings.NewReader(`{"prompt": "Once upon a time", "n_predict": 48, "temperature": 0, "seed": 0, "ignore_eos": true}`))
		if err != nil {
			t.Fatal(err)
		}
		var reply struct {
			Timings struct {
				PredictedPerSecond float64 `json:"predicted_per_second"`
			} `json:"timings"`
		}
		err = json.NewDecoder(resp.Body).Decode(&reply)
		resp.Body.Close()
		if err != nil || reply.Timings.PredictedPerSecond <= 0 {
			t.Fatalf("llama-server's reply: %v, rate %v", err, reply.Timings.PredictedPerSecond)
		}
		if i > 0 {
			rates = append(rates, reply.Timings.PredictedPerSecond)
		}
	}
	slices.Sort(rates)
	return rates[1]
}

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// The resume command an interrupted campaign prints works as printed in
// a shell without the variables the campaign's shell set (after `make
// demo`, a new shell had neither LLAMA_SERVER nor MODEL_DIR, and the
// resume said the engine of arm classic, ": sha256 ", had changed): it
// runs with the values the campaign ran with, against the real
// llama-server, into the same record, which passes check.
func TestPrintedResumeWorksWithoutTheVariables(t *testing.T) {
	tg := tag(t)
	p := start(t, scenario{Feature: "e2e-resume-vars", Tag: tg, Rounds: 2, MaxTokens: 64})
	p.waitFor(t, "run 2/4 draft: starting engine", 10*time.Minute)
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	res := p.wait(t)
	if res.code != 130 || res.record == nil || res.record.Verdict != schema.Incomplete {
		t.Fatalf("exit %d, want 130 with an INCOMPLETE record", res.code)
	}
	m := regexp.MustCompile(`resume with  decodebench (run --resume \S+)\n`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatal("no resume command printed")
	}
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(res.path), res.record.DataDir, "campaign.json"))
	if !strings.Contains(string(b), `"name": "LLAMA_SERVER"`) || !strings.Contains(string(b), `"name": "MODEL_DIR"`) {
		t.Fatalf("campaign.json keeps no variables:\n%s", b)
	}

	// A new shell in the same folder: the variables unset.
	p2 := &proc{dir: p.dir, out: p.out, tag: tg, lines: make(chan string, 1000), done: make(chan struct{}), unset: []string{"LLAMA_SERVER", "MODEL_DIR"}}
	p2.launch(t, "", strings.Fields(m[1])...)
	res2 := p2.wait(t)
	if res2.record == nil || res2.path != res.path {
		t.Fatalf("resumed record %q, want %q", res2.path, res.path)
	}
	rec := res2.record
	if rec.Verdict == schema.Incomplete || rec.Verdict == schema.Failed || len(rec.Runs) != 4 || len(rec.Method.Resumed) != 1 {
		t.Fatalf("after resume: verdict %s, %d runs, resumed %v", rec.Verdict, len(rec.Runs), rec.Method.Resumed)
	}
	for _, a := range rec.Scenario.Arms {
		if a.Command[0] != llamaServer || !strings.HasPrefix(a.Command[2], modelDir+"/") {
			t.Errorf("arm %s ran %q, not the campaign's %s with %s", a.Name, a.Command, llamaServer, modelDir)
		}
	}
	if out, err := exec.Command(binary, "check", res.path).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
}

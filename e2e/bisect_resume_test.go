package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// unreproducibleBuild is bisectBuild with a random build id: each build of
// a commit is another binary, as a build that stamps the time is.
const unreproducibleBuild = `go build -ldflags "-X main.build=$(git rev-list --count HEAD) -buildid=$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')" -o engine .`

// TestBisectResumeAfterRebuildDiffers: a bisect interrupted in its first
// step's campaign, whose builds are not bit-reproducible, resumes (issue
// 31 item 4): the rebuilt engine cannot go on in the interrupted record,
// so that record stays linked, INCOMPLETE, a fresh campaign follows, and
// the summary still passes check (it did not once the old record was
// unlinked but left in the data folder).
func TestBisectResumeAfterRebuildDiffers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test engine at every step")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "engine")
	shas := bisectRepo(t, repo)
	scen := filepath.Join(dir, "bisect.yaml")
	if err := os.WriteFile(scen, []byte(bisectScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	bisect := func(args ...string) *exec.Cmd {
		cmd := exec.Command(binary, append([]string{"bisect", "--wait-lock", "10m"}, args...)...)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		return cmd
	}
	// The range ends at the commit after the slow one: fewer steps than the
	// whole history, the interrupted first step and its resume the same.
	cmd := bisect("--source", repo, "--good", shas[0], "--bad", shas[slowCommit], "--build", unreproducibleBuild,
		"--threshold", "10%", "--out", out, "--hw", "test", "--date", "2026-01-03", scen)
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderrPipe)
	for sc.Scan() {
		l := sc.Text()
		log.WriteString(l + "\n")
		if strings.Contains(l, " run 4/") {
			_ = cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	go io.Copy(&log, stderrPipe)
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted bisect: %v, want exit 130\n%s", err, log.String())
	}

	var stdout, stderr bytes.Buffer
	cmd = bisect("--resume", filepath.Join(out, "data", "bisect-bisect-e2e-test-2026-01-03"), "--build", unreproducibleBuild)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bisect --resume: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "cannot be resumed") {
		t.Errorf("the resume did not say the rebuild differs:\n%s", stderr.String())
	}
	sumPath := filepath.Join(out, "bisect-bisect-e2e-test-2026-01-03.md")
	if b, err := exec.Command(binary, "check", sumPath).CombinedOutput(); err != nil {
		t.Fatalf("check %s: %v\n%s", sumPath, err, b)
	}
	src, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := recorder.ParseBisect(src)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Outcome.Result != schema.FoundFirstBad || sum.Outcome.FirstBad != shas[slowCommit-1] {
		t.Errorf("outcome %s %.12s, want found %.12s", sum.Outcome.Result, sum.Outcome.FirstBad, shas[slowCommit-1])
	}
	first := sum.Steps[0]
	if len(first.Campaigns) < 2 || first.Campaigns[0].Verdict != schema.Incomplete || first.Campaigns[1].Verdict == schema.Incomplete {
		t.Fatalf("step 1's campaigns %+v: want the interrupted one linked, then a fresh one", first.Campaigns)
	}
	if first.Class != first.Campaigns[len(first.Campaigns)-1].Class {
		t.Errorf("step 1 is %s, its last campaign %s", first.Class, first.Campaigns[len(first.Campaigns)-1].Class)
	}
}

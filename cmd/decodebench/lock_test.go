package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/machine"
)

// TestRunRefusesWhileAnotherCampaignHoldsTheHost holds the host lock in
// this process and runs `decodebench run` and `decodebench reproduce
// --yes` in a child: each must exit 1 at once, naming this process's pid
// and scenario; with --wait-lock it waits and still fails after the wait.
func TestRunRefusesWhileAnotherCampaignHoldsTheHost(t *testing.T) {
	childMain()
	lockPath := filepath.Join(t.TempDir(), "host.lock")
	t.Setenv("DECODEBENCH_LOCK", lockPath)
	lock, err := machine.AcquireHostLock(context.Background(), 0, machine.HolderInfo{PID: os.Getpid(), Start: time.Now(), Scenario: "holder-scenario.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	out := t.TempDir()
	rec := copyRecord(t, "identity-empty-epyc-2026-11-29")
	reproduce := func(flags string) string {
		return "reproduce " + flags + "--yes --var LLAMA_SERVER=llama-server --var MODEL_DIR=models --out " + out + " " + rec
	}
	for _, tc := range []struct {
		args string
		min  time.Duration
	}{
		{"run --out " + out + " llamacpp-speculative", 0},
		{"run --wait-lock 700ms --out " + out + " llamacpp-speculative", 700 * time.Millisecond},
		{reproduce(""), 0},
		{reproduce("--wait-lock 700ms "), 700 * time.Millisecond},
	} {
		cmd := childCommand(t, tc.args)
		t0 := time.Now()
		b, err := cmd.CombinedOutput()
		took := time.Since(t0)
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s: %v\n%s", tc.args, err, b)
		}
		if want := fmt.Sprintf("pid %d, scenario %q", os.Getpid(), "holder-scenario.yaml"); !strings.Contains(string(b), want) {
			t.Errorf("%s: output lacks %q:\n%s", tc.args, want, b)
		}
		if took < tc.min {
			t.Errorf("%s: gave up after %v", tc.args, took)
		}
		if waiting := strings.Count(string(b), "waiting up to 700ms for the host lock: another campaign holds the host lock"); (tc.min > 0) != (waiting == 1) {
			t.Errorf("%s: said it was waiting %d times:\n%s", tc.args, waiting, b)
		}
		if tc.min == 0 && took > 5*time.Second {
			t.Errorf("%s: took %v to refuse", tc.args, took)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("%s: a refused campaign wrote %d file(s)", tc.args, len(entries))
		}
	}
}

// copyRecord copies the committed record name (docs/benchmark_results)
// and its data folder into a new folder and returns the record's path.
func copyRecord(t *testing.T, name string) string {
	return filepath.Join(committed.Copy(t, name), name+".md")
}

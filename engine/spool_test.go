package engine

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The engine writes into the spool, a file without a name; the log file
// catches up outside the measured window, never inside it, and the window's
// lines, redacted in the file, reach the counters whole.
func TestLogSpool(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLog(dir + "/e.log")
	if err != nil {
		t.Fatal(err)
	}
	l.redact = func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[redacted]") }
	out, err := l.Spool()
	if err != nil {
		t.Fatal(err)
	}
	// A real child process writes to it, as the engine does.
	sh := func(script string) {
		cmd := exec.Command("sh", "-c", script)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
	}
	file := func() string { b, _ := os.ReadFile(dir + "/e.log"); return string(b) }
	sh("echo loading; echo key sk-secret >&2")
	deadline := time.Now().Add(3 * time.Second)
	for !strings.Contains(file(), "loading") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if f := file(); !strings.Contains(f, "loading") || !strings.Contains(f, "key [redacted]") || strings.Contains(f, "sk-secret") {
		t.Fatalf("log file outside the window:\n%s", f)
	}
	l.BeginWindow()
	sh("echo in window rounds=7; printf 'partial '")
	time.Sleep(3 * followEvery)
	if strings.Contains(file(), "rounds=7") {
		t.Error("the log file caught up inside the measured window")
	}
	sh("echo line")
	w := l.EndWindow(20*time.Millisecond, time.Second)
	if len(w) != 2 || w[0] != "in window rounds=7" || w[1] != "partial line" {
		t.Errorf("window lines %q", w)
	}
	sh("echo after")
	if tail := l.Tail(); len(tail) == 0 || tail[len(tail)-1] != "after" {
		t.Errorf("tail %q", tail)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	f := file()
	for _, want := range []string{"loading", "measured window start", "in window rounds=7", "partial line", "measured window end", "after"} {
		if !strings.Contains(f, want) {
			t.Errorf("log file lacks %q:\n%s", want, f)
		}
	}
	if strings.Index(f, "in window") < strings.Index(f, "window start") || strings.Index(f, "in window") > strings.Index(f, "window end") {
		t.Errorf("window lines outside the markers:\n%s", f)
	}
}

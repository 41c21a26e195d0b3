package engine

import (
	"os"
	"strings"
	"testing"
	"time"
)

// Marker lines and engine lines reach the file and the tail redacted; the
// window keeps the engine's lines as written, for the counters.
func TestLogRedacts(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLog(dir + "/e.log")
	if err != nil {
		t.Fatal(err)
	}
	l.redact = func(s string) string { return strings.ReplaceAll(s, "hunter2", "[redacted]") }
	l.Mark("start: srv --api-key %s", "hunter2")
	l.Write([]byte("loading hunt"))
	l.Write([]byte("er2 split across writes\n"))
	l.BeginWindow()
	l.Write([]byte("window hunter2 n=3\n"))
	w := l.EndWindow(10*time.Millisecond, time.Second)
	l.Write([]byte("partial hunter2"))
	tail := strings.Join(l.Tail(), "\n")
	l.Close()
	b, _ := os.ReadFile(dir + "/e.log")
	if strings.Contains(string(b), "hunter2") {
		t.Errorf("secret in the log file:\n%s", b)
	}
	if strings.Contains(tail, "hunter2") {
		t.Errorf("secret in the log tail: %q", tail)
	}
	if len(w) != 1 || w[0] != "window hunter2 n=3" {
		t.Errorf("window = %q, want the line as the engine wrote it", w)
	}
	for _, want := range []string{"start: srv --api-key [redacted]", "loading [redacted] split across writes", "partial [redacted]"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("log file lacks %q:\n%s", want, b)
		}
	}
}

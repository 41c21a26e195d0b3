package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A 500 MB stdout flood inside a window gave a 501 MB log and minutes of
// processing, and the run still counted as OK. The log file keeps the
// first and last 4 MiB with a marker saying what was cut (decodebench's
// own markers are kept), the window keeps at most MaxWindowBytes for
// counters, and the flood is reported.
func TestLogFloodKeepsHeadAndTail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.log")
	// A real command engine floods its output: 40 MB of lines.
	script := `echo first line; yes 'flood line of the engine, about fifty bytes long' | head -c 40000000; echo; echo last line`
	start := time.Now()
	res, err := RunCommand(context.Background(), CommandConfig{Command: []string{"sh", "-c", script}, LogPath: path, Label: "measured", Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("processed in %s", time.Since(start))
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > LogHeadBytes+LogTailBytes+64<<10 {
		t.Errorf("log file is %d MB", fi.Size()>>20)
	}
	b, _ := os.ReadFile(path)
	f := string(b)
	for _, want := range []string{"first line", "last line", "engine output cut: ", "measured window start", "measured window end", "a flood"} {
		if !strings.Contains(f, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if !res.Window.Flood() || res.Window.Bytes < 40000000 || res.LogCut < 30000000 {
		t.Errorf("window %+v, cut %d", res.Window, res.LogCut)
	}
	kept := 0
	for _, l := range res.Lines {
		kept += len(l)
	}
	if kept > MaxWindowBytes || res.Window.LinesCut == 0 || res.Lines[0] != "first line" {
		t.Errorf("window kept %d bytes, cut %d lines", kept, res.Window.LinesCut)
	}
}

// An engine line with no newline cannot grow the log's memory: it is
// split at MaxLogLine, and an error's log tail quotes each line shortly.
func TestLogLongLineSplitAndTailShort(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "e.log"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("z", 64<<10))
	for i := 0; i < 100; i++ { // 6.4 MB, one line
		l.Write(chunk)
	}
	if len(l.partial) > MaxLogLine {
		t.Errorf("partial line %d bytes", len(l.partial))
	}
	for _, s := range l.Tail() {
		if len(s) > tailLineBytes+64 {
			t.Errorf("tail line of %d bytes", len(s))
		}
	}
	l.Close()
}

// A log that could not be written whole (a full disk) makes Close fail:
// its run is not OK.
func TestLogWriteFailureFailsClose(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	l := &Log{f: full, last: time.Now()}
	l.Mark("start")
	l.Write([]byte("engine line\n"))
	if err := l.Close(); err == nil || !strings.Contains(err.Error(), "engine log incomplete") {
		t.Errorf("Close on a full disk: %v", err)
	}
}

// The spool (a memfd on Linux: memory) is not left to grow inside a long
// window: once the engine has written more than spoolDrainAt the log has
// not read, the log catches up and frees what it read, so an engine that
// writes 96 MiB through a window, no faster than the log reads, holds at
// most about that much and is not stopped.
func TestSpoolBacklogBoundedInWindow(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "e.log"))
	if err != nil {
		t.Fatal(err)
	}
	spool, err := l.Spool()
	if err != nil {
		t.Fatal(err)
	}
	l.BeginWindow()
	line := []byte(strings.Repeat("flood line of the engine, about fifty bytes long\n", 1<<16))
	peak := int64(-1)
	for written := 0; written < MaxSpoolBacklog+(32<<20); {
		if _, err := spool.Write(line); err != nil {
			t.Fatal(err)
		}
		written += len(line)
		// The writer waits while the log is behind by more than it copies
		// on its own (no faster than the log reads); a log that never
		// catches up inside the window fails after a minute.
		for deadline := time.Now().Add(time.Minute); int64(written)-l.guard.Load().read.Load() > spoolDrainAt+int64(len(line)); {
			if time.Now().After(deadline) {
				t.Fatalf("the log did not catch up inside the window: %d MiB unread", (int64(written)-l.guard.Load().read.Load())>>20)
			}
			time.Sleep(spoolCheckWindow / 4)
		}
		peak = max(peak, spoolHeld(t, spool))
	}
	l.EndWindow(0, 0)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if peak < 0 {
		t.Skip("this system does not report a file's allocated blocks")
	}
	if peak > MaxSpoolBacklog {
		t.Errorf("the spool held %d MiB inside the window", peak>>20)
	}
	if w := l.Window(); !w.Flood() || w.Bytes < MaxSpoolBacklog {
		t.Errorf("window %+v is not the flood it was", w)
	}
}

// A line longer than MaxLogLine is split whether its newline comes in the
// write that passes the bound or later, and never inside a character:
// every window line is at most MaxLogLine and valid UTF-8, and the pieces
// joined are the line (a complete line of 1 MiB and a little was kept
// whole, and MeasuredWindow then refused the run's window).
func TestLogSplitsEveryLongLineAtACharacter(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "e.log"))
	if err != nil {
		t.Fatal(err)
	}
	l.BeginWindow()
	long := strings.Repeat("é", MaxLogLine/2+5000) // two bytes a character, the bound falls inside none or one
	odd := "x" + long                              // the bound falls inside a character
	l.Write([]byte(long + "\n" + odd + "\n"))
	l.Write([]byte(odd[:MaxLogLine-10]))
	l.Write([]byte(odd[MaxLogLine-10:] + "\n"))
	lines := l.EndWindow(0, 0)
	var joined []string
	cur := ""
	for _, s := range lines {
		if strings.HasPrefix(s, MarkerPrefix) {
			continue
		}
		if len(s) > MaxLogLine || !utf8.ValidString(s) {
			t.Errorf("a window line of %d bytes, valid UTF-8 %v", len(s), utf8.ValidString(s))
		}
		cur += s
		if len(s) < MaxLogLine-utf8.UTFMax {
			joined, cur = append(joined, cur), ""
		}
	}
	if want := []string{long, odd, odd}; !slices.Equal(joined, want) {
		t.Errorf("%d lines joined back, of %v bytes; want 3 of %d, %d, %d", len(joined), lens(joined), len(long), len(odd), len(odd))
	}
	l.Close()
}

func lens(ss []string) []int {
	var n []int
	for _, s := range ss {
		n = append(n, len(s))
	}
	return n
}

// A long line is cut after a space near the bound where it has one, so a
// secret that straddles the bound stays on one line, masked in the file.
func TestLogSplitKeepsAWordWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.log")
	l, err := NewLog(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := "hf_" + strings.Repeat("Wq4", 11) + "z"
	l.redact = func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	words := strings.Repeat("word ", (MaxLogLine-20)/5)
	l.Write([]byte(words + secret + " tail\n"))
	l.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "Wq4") || !strings.Contains(string(b), "[redacted] tail") {
		t.Errorf("the secret across the bound is not masked whole: %q", b[len(b)-200:])
	}
	for _, s := range strings.Split(string(b), "\n") {
		if len(s) > MaxLogLine {
			t.Errorf("a line of %d bytes", len(s))
		}
	}
}

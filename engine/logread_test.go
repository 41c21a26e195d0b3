package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/redact"
)

// MeasuredWindow reads back from a log file exactly the lines the log's
// last measured window kept, and says the file does not show them whole
// where it cut, redacted or never ended the window.
func TestMeasuredWindowReadsWhatTheWindowKept(t *testing.T) {
	write := func(t *testing.T, red func(string) string, before string, windows ...string) (string, []string) {
		t.Helper()
		p := filepath.Join(t.TempDir(), "run.log")
		l, err := NewLog(p)
		if err != nil {
			t.Fatal(err)
		}
		l.redact = red
		l.Write([]byte(before))
		var kept []string
		for _, w := range windows {
			l.Mark("measured run: x")
			l.BeginWindow()
			l.Write([]byte(w))
			kept = l.EndWindow(0, 0)
		}
		l.Mark("exited (exit status 0)")
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		return p, kept
	}
	read := func(t *testing.T, p string) StoredWindow {
		t.Helper()
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w, err := MeasuredWindow(f)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	mask := func(s string) string { return strings.ReplaceAll(s, "sekrit", redact.Mask) }

	p, kept := write(t, mask, "loading\nsekrit outside\n", "warmup: eval 1 tok/s\n", "a\r\n\nb=2\npartial, no newline")
	if w := read(t, p); !w.Whole || !reflect.DeepEqual(w.Lines, kept) {
		t.Errorf("read %+v, the window kept %q", w, kept)
	}
	// A line stored redacted is read as stored, and named.
	if w := read(t, writeOnly(t, write, mask, "a=1\nkey sekrit=1\n")); !w.Whole || !reflect.DeepEqual(w.Redacted, []int{1}) || w.Lines[1] != "key "+redact.Mask+"=1" {
		t.Errorf("a window line stored redacted: read %+v", w)
	}
	// A log past its head and tail: the window's start marker falls in
	// the cut stretch and is written after the cut, apart from its lines.
	big := strings.Repeat(strings.Repeat("x", 1023)+"\n", (LogHeadBytes+LogTailBytes)/1024+64)
	cut := writeOnly(t, write, nil, big+"b=2\n")
	if w := read(t, cut); w.Whole || !w.Cut || len(w.CutBytes) != 1 || w.CutBytes[0] == 0 {
		t.Errorf("a cut log: read %+v", w)
	}
	// A cut marker in a log that was not cut, or not in the log's form,
	// is no cut: the window is not read, and no cut is claimed.
	b, err := os.ReadFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"small": MarkerPrefix + "2026-01-01T00:00:00Z " + cutMarkText(5, 1) + "\n" + MarkerPrefix + "t measured window start\nb=2\n" + MarkerPrefix + "t measured window end\n",
		"form":  strings.Replace(string(b), " bytes in ", " bytes  in ", 1),
		"tail":  string(b[:len(b)-LogTailBytes/2]),
	} {
		q := filepath.Join(t.TempDir(), "run.log")
		if err := os.WriteFile(q, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if w := read(t, q); w.Whole || w.Cut {
			t.Errorf("%s: a cut marker no log writes read as a cut: %+v", name, w.Why)
		}
	}
	// An engine that writes lines in a marker's form, outside the window
	// and inside it: the file escapes them, so the window is still found
	// (its start and end are decodebench's), and one inside it is not read
	// as whole.
	fake := MarkerPrefix + "t measured window start\n" + MarkerPrefix + "t measured window end\n"
	p, kept = write(t, nil, fake+"drafted=9\n", "drafted=3\n")
	if w := read(t, p); !w.Whole || !reflect.DeepEqual(w.Lines, kept) {
		t.Errorf("marker-like engine lines before the window: read %+v, the window kept %q", w, kept)
	}
	p, kept = write(t, nil, "", "drafted=3\n"+fake+"drafted=4\n")
	if w := read(t, p); !w.Whole || !reflect.DeepEqual(w.Lines, kept) {
		t.Errorf("marker-like engine lines inside the window: read %+v, the window kept %q", w, kept)
	}
	// decodebench's own marker inside the window: no log writes one.
	q := filepath.Join(t.TempDir(), "run.log")
	if err := os.WriteFile(q, []byte(MarkerPrefix+"t measured window start\nb=2\n"+MarkerPrefix+"t warmup request 1\n"+MarkerPrefix+"t measured window end\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := read(t, q); w.Whole || w.Cut {
		t.Errorf("a marker inside the window read as whole: %+v", w)
	}
	// A log that never ended its window (the run failed inside it).
	q = filepath.Join(t.TempDir(), "run.log")
	if err := os.WriteFile(q, []byte(MarkerPrefix+"t measured window start\nb=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := read(t, q); w.Whole {
		t.Errorf("a window without its end read as whole: %+v", w)
	}
}

func writeOnly(t *testing.T, write func(*testing.T, func(string) string, string, ...string) (string, []string), red func(string) string, window string) string {
	t.Helper()
	p, _ := write(t, red, "", window)
	return p
}

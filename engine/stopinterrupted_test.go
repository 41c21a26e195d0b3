package engine

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// After an interrupt an engine that ignores SIGTERM held decodebench for
// its whole stop_grace (an hour here), silently, also when the interrupt
// came while the stop already waited: the wait is bounded by
// InterruptGrace, a line names the pid and the wait, and the group is
// killed.
func TestInterruptedStopBounded(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ignterm")
	src := "#!/usr/bin/env python3\nimport signal, sys, http.server\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" +
		"class H(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n        self.send_response(200); self.end_headers(); self.wfile.write(b'ok')\n" +
		"http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n"
	if err := execfile.Write(script, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), Config{Command: []string{script, "${PORT}"}, ReadyPath: "/health", ReadyTimeout: 20 * time.Second,
		StopGrace: time.Hour, LogPath: filepath.Join(dir, "e.log")})
	if err != nil {
		t.Fatal(err)
	}
	// The interrupt comes while the stop already waits (the run had
	// ended when the user pressed Ctrl-C).
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	var say strings.Builder
	start := time.Now()
	_ = s.StopInterruptible(ctx, &say)
	if d := time.Since(start); d > InterruptGrace+4*time.Second {
		t.Errorf("the interrupted stop took %s", d)
	}
	if want := "interrupted: waiting up to 5s for the engine (pid " + strconv.Itoa(s.Pid()) + ")"; !strings.Contains(say.String(), want) {
		t.Errorf("said %q, want %q", say.String(), want)
	}
	if !gone(s.Pid()) {
		t.Errorf("the engine %d still runs", s.Pid())
	}
}

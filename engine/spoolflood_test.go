package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// spoolsHeld is the memory the engine-output spools of this process hold
// now (their allocated blocks), found through /proc/self/fd.
func spoolsHeld() int64 {
	ents, _ := os.ReadDir("/proc/self/fd")
	var sum int64
	for _, e := range ents {
		p := "/proc/self/fd/" + e.Name()
		if dst, err := os.Readlink(p); err != nil || !strings.Contains(dst, "decodebench-engine-output") {
			continue
		}
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			sum += st.Blocks * 512
		}
	}
	return sum
}

// A server engine writing its output far faster than the log reads it
// (`yes`: two-byte lines) once grew the spool, memory, without bound (1.6
// GB in 3 s), and held the log's lock: the start never ended, nor the stop
// a SIGTERM asked for. Now the engine is killed once MaxSpoolBacklog is
// unread, the start fails with that reason, the spool stays near the
// bound, and the log keeps its head and tail. A watcher kills the engine
// past 1 GiB, so the test fails without filling memory.
func TestServerOutputFloodKilled(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	// Never ready: the start lasts until the engine dies or two minutes.
	ready := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
	defer ready.Close()
	pickPort = func() (int, error) { return ready.Listener.Addr().(*net.TCPAddr).Port, nil }
	defer func() { pickPort = FreePort }()
	peak, stop, done := int64(0), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			held := spoolsHeld()
			peak = max(peak, held)
			if held > 1<<30 {
				KillAll()
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	path := filepath.Join(t.TempDir(), "e.log")
	start := time.Now()
	_, err := Start(context.Background(), Config{Command: []string{"sh", "-c", "echo first line; exec yes"}, ReadyPath: "/health", ReadyTimeout: 2 * time.Minute, StopGrace: time.Second, LogPath: path})
	close(stop)
	<-done
	t.Logf("start failed after %s, spool peak %d MiB", time.Since(start).Round(time.Millisecond), peak>>20)
	if err == nil || !strings.Contains(err.Error(), "faster than decodebench could read it") {
		t.Errorf("start: %v", err)
	}
	if peak > 3*MaxSpoolBacklog {
		t.Errorf("the spool held %d MiB", peak>>20)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > LogHeadBytes+LogTailBytes+64<<10 {
		t.Errorf("log file is %d MiB", fi.Size()>>20)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{"first line", "engine output cut: ", "faster than decodebench could read it", "stopped ("} {
		if !strings.Contains(string(b), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

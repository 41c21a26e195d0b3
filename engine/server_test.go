package engine

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realEngine returns the llama-server and model the end-to-end tests use,
// or skips (fails, in CI) when `make test` did not provide them.
func realEngine(t *testing.T) (server, model string) {
	t.Helper()
	server = os.Getenv("DECODEBENCH_LLAMA_SERVER")
	models := os.Getenv("DECODEBENCH_MODELS")
	if models == "" {
		models, _ = filepath.Abs("../.cache/models")
	}
	model = filepath.Join(models, "target.gguf")
	_, err := os.Stat(model)
	if server == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("real llama-server or model missing in CI (server %q, model %s)", server, model)
		}
		t.Skip("needs the real llama-server and models: run `make test`")
	}
	return server, model
}

// A port taken by another process between decodebench's choice and the
// engine's bind is detected from the engine's own error, and the engine is
// started again on another port.
func TestStartRetriesTakenPort(t *testing.T) {
	server, model := realEngine(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port
	calls := 0
	pickPort = func() (int, error) {
		calls++
		if calls == 1 {
			return takenPort, nil
		}
		return FreePort()
	}
	defer func() { pickPort = FreePort }()
	dir := t.TempDir()
	s, err := Start(context.Background(), Config{
		Command:      []string{server, "-m", model, "--host", "127.0.0.1", "--port", "${PORT}", "-t", "1", "-np", "1", "-c", "256"},
		ReadyPath:    "/health",
		ReadyTimeout: 60 * time.Second,
		LogPath:      filepath.Join(dir, "engine.log"),
	})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer s.Stop()
	if s.Port == takenPort || calls != 2 {
		t.Errorf("port %d after %d choices; the taken port was %d", s.Port, calls, takenPort)
	}
	pid := s.Pid()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("kill", "-0", strconv.Itoa(pid)).Run(); err == nil {
		t.Errorf("engine %d still running after Stop", pid)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "engine.log"))
	if !strings.Contains(string(log), "port conflict on the previous start") {
		t.Errorf("log does not record the retry:\n%s", log)
	}
}

// An engine that exits while starting is an error quoting its last log
// lines.
func TestStartReportsEarlyExit(t *testing.T) {
	server, _ := realEngine(t)
	_, err := Start(context.Background(), Config{
		Command:      []string{server, "-m", "/nonexistent/model.gguf", "--port", "${PORT}"},
		ReadyPath:    "/health",
		ReadyTimeout: 30 * time.Second,
		LogPath:      filepath.Join(t.TempDir(), "engine.log"),
	})
	if err == nil || !strings.Contains(err.Error(), "engine exited while starting") || !strings.Contains(err.Error(), "/nonexistent/model.gguf") {
		t.Errorf("err = %v", err)
	}
}

package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// scripts/install-llama-server.sh's wrappers name their files relative to
// themselves: two installs of one build in two clones are the same file,
// so their records agree on every hash; the wrapped binary and the
// engine's shared libraries (libllama, libggml and its CPU backends) are
// hashed too, found without running anything.
func TestWrapperIsPathIndependent(t *testing.T) {
	server := os.Getenv("DECODEBENCH_LLAMA_SERVER")
	if server == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("needs the real engine in CI: run through make test")
		}
		t.Skip("DECODEBENCH_LLAMA_SERVER not set")
	}
	real, _ := wrapperMarkers(server)
	if real == "" || !strings.HasSuffix(real, "/root/usr/bin/llama-server") {
		t.Skipf("%s is not an install of scripts/install-llama-server.sh", server)
	}
	root := strings.TrimSuffix(real, "/usr/bin/llama-server")
	script, err := filepath.Abs("../scripts/install-llama-server.sh")
	if err != nil {
		t.Fatal(err)
	}
	var ids []struct {
		wrapper string
		sha     string
		real    string
		libs    map[string]string
	}
	for _, clone := range []string{"clone-a", "clone-b/deeper"} {
		prefix := filepath.Join(t.TempDir(), clone, ".cache", "llama.cpp")
		os.MkdirAll(prefix, 0o755)
		// A farm of links to the installed files: the script writes its
		// wrappers and backend links in this prefix only.
		if out, err := exec.Command("cp", "-rs", root, filepath.Join(prefix, "root")).CombinedOutput(); err != nil {
			t.Fatalf("cp -rs: %v\n%s", err, out)
		}
		cmd := exec.Command(script, prefix)
		cmd.Env = append(os.Environ(), "PATH=/usr/sbin:/usr/bin:/sbin:/bin")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v", script, prefix, err)
		}
		wrapper := strings.TrimSpace(string(out))
		if wrapper != filepath.Join(prefix, "bin", "llama-server") {
			t.Fatalf("the script printed %q", wrapper)
		}
		b, _ := os.ReadFile(wrapper)
		if strings.Contains(string(b), prefix) || strings.Contains(string(b), root) {
			t.Errorf("the wrapper names a path of this machine:\n%s", b)
		}
		id := Identify(context.Background(), wrapper, os.Environ(), "")
		if !strings.HasPrefix(id.Version, "version: ") || len(id.Problems) > 0 {
			t.Errorf("%s: version %q, problems %q", wrapper, id.Version, id.Problems)
		}
		libs := map[string]string{}
		for _, l := range id.Libraries {
			libs[filepath.Base(l.Path)] = l.SHA256
		}
		ids = append(ids, struct {
			wrapper, sha, real string
			libs               map[string]string
		}{wrapper, id.SHA256, id.RealSHA256, libs})
		var names []string
		for n := range libs {
			names = append(names, n)
		}
		for _, want := range []string{"libllama.so.", "libggml-base.so.", "libggml-cpu-"} {
			if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, want) }) {
				t.Errorf("no %s* among the hashed libraries %q", want, names)
			}
		}
	}
	a, b := ids[0], ids[1]
	if a.sha != b.sha || a.real != b.real || a.real == "" {
		t.Errorf("two clones' installs differ: wrapper %s vs %s, wrapped %s vs %s", a.sha, b.sha, a.real, b.real)
	}
	if len(a.libs) != len(b.libs) {
		t.Errorf("libraries %d vs %d", len(a.libs), len(b.libs))
	}
	for n, s := range a.libs {
		if b.libs[n] != s {
			t.Errorf("library %s: %s vs %s", n, s, b.libs[n])
		}
	}
}

// A wrapper script's markers may name anything: a FIFO (or a link to one)
// as the real binary, /dev/zero as a library folder's file. Identify
// refuses them at once as not regular files, instead of hanging on the
// FIFO or hashing /dev/zero forever.
func TestIdentifyRefusesSpecialFilesAWrapperNames(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "real-binary")
	if err := syscall.Mkfifo(fifo, 0o700); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(dir, "engine")
	script := "#!/bin/sh\n" + RealBinaryMarker + "real-binary\necho version: 1\n"
	if err := execfile.Write(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- Identify(context.Background(), wrapper, os.Environ(), "").Problems }()
	select {
	case problems := <-done:
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "a FIFO, not a regular file") }) {
			t.Errorf("problems %q do not refuse the FIFO", problems)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Identify hung on a FIFO the wrapper names")
	}
	// A FIFO on PATH with execute bits passes exec.LookPath: hashing it
	// and reading its markers do not hang either.
	done2 := make(chan []string, 1)
	go func() { done2 <- Identify(context.Background(), fifo, os.Environ(), "").Problems }()
	select {
	case problems := <-done2:
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "a FIFO, not a regular file") }) {
			t.Errorf("problems %q do not refuse the FIFO", problems)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Identify hung on a FIFO engine command")
	}
}

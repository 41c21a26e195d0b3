package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// The quiet and contention gates judge the host: these tests hold under a
// background load (`make test` ten times beside a busy loop) by measuring
// the background first and making their own load stand out from it.

// spinner starts a CPU-bound process whose name (comm) is name: a copy of
// /bin/sh running a busy loop. It is killed when the test ends.
func spinner(t *testing.T, name string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if err := execfile.Copy("/bin/sh", bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", "while :; do :; done")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// spinThreadsEnv, set to N, makes the test binary a spinner of N threads
// (multiSpinner) instead of running tests.
const spinThreadsEnv = "DECODEBENCH_E2E_SPIN_THREADS"

// spinIfAsked spins forever in N threads when spinThreadsEnv says N, and
// exits once its parent (the test binary) is gone.
func spinIfAsked() {
	n, err := strconv.Atoi(os.Getenv(spinThreadsEnv))
	if err != nil || n <= 0 {
		return
	}
	parent := os.Getppid()
	runtime.GOMAXPROCS(n) // n threads running at once, not one a core
	for range n {
		go func() {
			for {
			}
		}()
	}
	for os.Getppid() == parent {
		time.Sleep(200 * time.Millisecond)
	}
	os.Exit(0)
}

// multiSpinner starts one process named name of four busy threads a core:
// the scheduler shares the CPU by thread, so it is the busiest process on
// the host as long as no other process has nearly as many busy threads
// (on this shared VM, other campaigns' two-thread engines and a test's
// workers were busier than a spinner of two threads a core).
func multiSpinner(t *testing.T, name string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A link named name: the kernel names the process after the path it
	// was started by.
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", spinThreadsEnv, 4*machineCores()))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func machineCores() int {
	n := 0
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "processor") {
			n++
		}
	}
	return max(n, 1)
}

// backgroundCores is the CPU share (1 = one core) of the busiest process
// outside this test over two seconds: the background load the test's own
// must stand out from.
func backgroundCores(t *testing.T) float64 {
	t.Helper()
	ctx := context.Background()
	before, err := machine.ListProcesses(ctx)
	t0 := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	after, err := machine.ListProcesses(ctx)
	wall := time.Since(t0).Seconds()
	if err != nil {
		t.Fatal(err)
	}
	cpu := map[int]float64{}
	for _, p := range before {
		cpu[p.PID] = p.CPU
	}
	busiest := 0.0
	for _, p := range after {
		if c, ok := cpu[p.PID]; ok && !p.Kernel && p.PID != os.Getpid() && p.CPU >= c {
			busiest = math.Max(busiest, (p.CPU-c)/wall)
		}
	}
	t.Logf("the busiest background process used %.2f of a core", busiest)
	return busiest
}

// aboveBackground is a quiet gate max_cpu, in percent of a core, that the
// measured background stays under: the default 15% on a quiet host.
func aboveBackground(cores float64) int {
	return max(15, int(math.Ceil(100*(1.5*cores+0.1))))
}

// hostScenario is the metrics scenario with the gates given, its engine
// on one thread: two threads on a 2-core host whose other core is busy
// spin at ggml's barriers and starve llama-server's HTTP thread (a reply
// whose connection closed seconds after its last byte failed the run).
func hostScenario(extra string) string {
	s := strings.Replace(metricsScenario("/completion", ""), "gates: {max_spread: 0, max_contended: 0}", extra, 1)
	return strings.Replace(s, `"-t", "2"`, `"-t", "1"`, 1)
}

// startFile starts decodebench on a scenario file in the background.
func startFile(t *testing.T, yaml string) *proc {
	t.Helper()
	needEngine(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &proc{dir: dir, out: filepath.Join(dir, "records"), lines: make(chan string, 1000), done: make(chan struct{})}
	return p.launch(t, "", "run", "--out", p.out, "--hw", "test", "--date", "2026-01-02", path)
}

// A campaign started beside a busy process named like a compiler is held
// by the quiet gate, says what held it, and proceeds once it stops. The
// compiler holds the gate by its name (the deny list), whatever CPU it
// gets; the gate's CPU threshold is set above the busiest background
// process, measured first, so that a background load (a busy loop beside
// `make test`) does not hold it. The threshold itself is tested on process
// lists in machine/. Compilers of the host's own (another build) rightly
// hold the gate too: a wait that ran to max_wait is this test's failure
// only when nothing but its own compiler held it.
func TestQuietGateHoldsForACompiler(t *testing.T) {
	needEngine(t)
	maxCPU := aboveBackground(backgroundCores(t))
	cc := spinner(t, "cc1plus")
	ours := cc.Process.Pid
	yaml := strings.Replace(hostScenario(fmt.Sprintf("gates: {max_spread: 0, max_contended: 0, quiet: {window: 2s, interval: 500ms, max_wait: 120s, max_cpu: %d%%}}", maxCPU)),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 0, cooldown: 0s", 1)
	p := startFile(t, yaml)
	// The compiler runs on for 3 s after the gate began to wait.
	p.waitFor(t, "waiting for a quiet host", 120*time.Second)
	time.Sleep(3 * time.Second)
	cc.Process.Kill()
	res := p.wait(t)
	if res.code != 0 && res.code != 2 || res.record == nil {
		t.Fatalf("exit %d", res.code)
	}
	// others are the processes other than the test's compiler that held a
	// wait.
	others := func(q *schema.QuietWait) []string {
		var out []string
		for _, c := range q.Culprits {
			if c.PID != ours {
				out = append(out, fmt.Sprintf("%s (%d, %s)", c.Name, c.PID, c.Reason))
			}
		}
		return out
	}
	for i, r := range res.record.Runs {
		q := r.Quiet
		if q == nil {
			t.Fatalf("run %d has no quiet wait", r.Seq)
		}
		held := slices.ContainsFunc(q.Culprits, func(c schema.HostProcess) bool { return c.PID == ours && c.Name == "cc1plus" })
		switch {
		case i == 0 && (!held || q.WaitedS < 3):
			t.Errorf("first run's quiet wait %+v: want held, naming cc1plus, while the compiler ran (3 s)", q)
		case i > 0 && held:
			t.Errorf("run %d was held by the compiler after it stopped: %+v", r.Seq, q)
		}
		if q.EndedBy != "quiet" {
			if o := others(q); len(o) > 0 {
				t.Logf("run %d: the host's own processes held the gate to %s: %v", r.Seq, q.EndedBy, o)
			} else {
				t.Errorf("run %d: the wait ended by %s with nothing but the test's compiler, stopped, to hold it: %+v", r.Seq, q.EndedBy, q)
			}
		}
	}
	if !strings.Contains(res.md, "quiet wait") {
		t.Error("the record does not show the quiet wait")
	}
}

// A load on the other cores during a real run marks the run contended and
// names the processes that caused it: the test's own load (threads enough
// to be among the busiest beside a background load) is among the culprits
// the run names. Another user's process that used more CPU is rightly
// named first; the feature promises the load is named, not that it is the
// busiest process on a shared host.
func TestContendedRunNamesTheCulprit(t *testing.T) {
	needEngine(t)
	multiSpinner(t, "hogspin")
	time.Sleep(500 * time.Millisecond)
	yaml := strings.Replace(hostScenario("gates: {max_spread: 0, max_contended: 0}"),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 0, cooldown: 0s", 1)
	_, rec, md, _ := runFile(t, yaml)
	named := 0
	var culprits []string
	for i, r := range rec.Runs {
		c := r.Contention
		if c == nil || c.Culprit == nil {
			continue
		}
		names := []schema.HostProcess{*c.Culprit}
		names = append(names, c.Next...)
		culprits = append(culprits, fmt.Sprintf("run %d: %v", r.Seq, names))
		hog := slices.ContainsFunc(names, func(p schema.HostProcess) bool { return p.Name == "hogspin" })
		if i < len(rec.Analysis.Marks) && rec.Analysis.Marks[i].Contended && hog {
			named++
		}
	}
	if named == 0 {
		t.Errorf("no run marked contended with hogspin among its culprits; culprits %v; marks %+v", culprits, rec.Analysis.Marks)
	}
	if !strings.Contains(md, "hogspin (") {
		t.Error("the record's runs do not name hogspin")
	}
}

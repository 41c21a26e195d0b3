package machine

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// The stat file's reading names every process as gopsutil's five to six
// files did: the same parents, names (made whole past 15 bytes from the
// first argument), kernel threads and CPU times. It is taken between two
// of the library's listings, and held to them for the processes the two
// agree on: a process may exec, or a kernel worker rename itself, between
// listings on a busy host.
func TestListProcessesAsTheLibrary(t *testing.T) {
	ctx := context.Background()
	// A process whose name is longer than the kernel's 15 bytes.
	sleeper := filepath.Join(t.TempDir(), "a-sleeper-with-a-long-name")
	if err := execfile.Copy("/bin/sleep", sleeper, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sleeper, "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	time.Sleep(50 * time.Millisecond) // exec'd
	before, err := listLibrary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := listProcesses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, err := listLibrary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byPID := func(ps []Proc) map[int]Proc {
		m := map[int]Proc{}
		for _, p := range ps {
			m[p.PID] = p
		}
		return m
	}
	got, later := byPID(fast), byPID(after)
	same, long := 0, 0
	for _, want := range before {
		g, ok := got[want.PID]
		w2, ok2 := later[want.PID]
		if !ok || !ok2 || w2.Name != want.Name || w2.PPID != want.PPID {
			continue // ended, started or changed between the listings
		}
		same++
		if len(want.Name) > 15 {
			long++
		}
		// A kernel worker's name is the work it does at the moment, and
		// changes and changes back between listings.
		named := want.Kernel || g.Name == want.Name
		if g.PPID != want.PPID || !named || g.Kernel != want.Kernel || g.CPU < want.CPU-1e-9 || g.CPU > w2.CPU+1e-9 {
			t.Errorf("pid %d: %+v, the library's %+v before it and %+v after", want.PID, g, want, w2)
		}
	}
	if p := got[cmd.Process.Pid]; p.Name != filepath.Base(sleeper) {
		t.Errorf("the sleeper is named %q", p.Name)
	}
	if same == 0 || math.Abs(float64(len(fast)-len(before))) > 0.2*float64(len(before)) {
		t.Errorf("%d processes listed, the library's %d, %d in every listing", len(fast), len(before), same)
	}
	t.Logf("%d processes in every listing, %d with a name past 15 bytes", same, long)
}

// A stat line's short name may hold spaces and parentheses; a zombie is
// said; a line that is not a stat line is refused.
func TestProcStat(t *testing.T) {
	line := "4242 (a) b (c)) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 130 0 0 20 0 1 0 12345 1000 10 18446744073709551615\n"
	p, zombie, ok := procStat([]byte(line), 100)
	if !ok || zombie || p.PID != 4242 || p.PPID != 17 || p.Name != "a) b (c)" || math.Abs(p.CPU-3.8) > 1e-9 {
		t.Errorf("procStat = %+v, zombie %v, ok %v", p, zombie, ok)
	}
	if _, zombie, ok := procStat([]byte("7 (defunct) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 1 0 0\n"), 100); !ok || !zombie {
		t.Errorf("a zombie: zombie %v, ok %v", zombie, ok)
	}
	for _, bad := range []string{"", "x (y) S 1", "12 (y S 1 2 3 4 5 6 7 8 9 10 11 12 13", "12 (y) S 1 2 3"} {
		if _, _, ok := procStat([]byte(bad), 100); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// BenchmarkListProcesses: a listing of this host's processes, read from
// each one's stat file, against gopsutil's reading.
func BenchmarkListProcesses(b *testing.B) {
	for _, c := range []struct {
		name string
		list func(context.Context) ([]Proc, error)
	}{{"stat", listProcesses}, {"gopsutil", listLibrary}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, err := c.list(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

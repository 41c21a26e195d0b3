package machine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// A host whose memory the bandwidth table does not list (a CPU server, a
// GPU machine whose engine decodes on its CPU) has it measured: STREAM's
// triad, a[i] = b[i] + s·c[i], on every hardware thread at once over
// arrays each at least twice the last-level cache, so that the figure is
// the memory's and not the cache's. Counted as STREAM counts it: 24 bytes
// an element (two reads and a write of 8), the best of the passes. It is
// measured once per machine and kept in the user's cache folder.

// TriadConfig sizes a measurement: each of the three arrays' bytes, the
// threads, the passes.
type TriadConfig struct {
	ArrayBytes int64
	Threads    int
	Passes     int
}

// DefaultTriad sizes the triad for this machine: arrays of twice the
// last-level cache (at least 64 MiB, at most 1 GiB, and together at most
// an eighth of memory), every hardware thread, five passes.
func DefaultTriad(memoryBytes uint64) TriadConfig {
	size := max(2*LastLevelCache(), 64<<20)
	size = min(size, 1<<30)
	if memoryBytes > 0 {
		size = min(size, int64(memoryBytes/24))
	}
	return TriadConfig{ArrayBytes: size, Threads: runtime.NumCPU(), Passes: 5}
}

// LastLevelCache reads the largest cache's size from sysfs (Linux); 0
// where it cannot.
func LastLevelCache() int64 {
	var best int64
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "size"))
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		mult := int64(1)
		switch {
		case strings.HasSuffix(s, "K"):
			mult, s = 1<<10, strings.TrimSuffix(s, "K")
		case strings.HasSuffix(s, "M"):
			mult, s = 1<<20, strings.TrimSuffix(s, "M")
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n*mult > best {
			best = n * mult
		}
	}
	return best
}

// Triad measures the host memory's bandwidth in GB/s (1e9 bytes).
func Triad(ctx context.Context, c TriadConfig) (float64, error) {
	n := int(c.ArrayBytes / 8)
	if n < 1<<16 || c.Threads < 1 || c.Passes < 1 {
		return 0, fmt.Errorf("triad: %d-byte arrays, %d threads, %d passes", c.ArrayBytes, c.Threads, c.Passes)
	}
	a, b, cc := make([]float64, n), make([]float64, n), make([]float64, n)
	chunk := (n + c.Threads - 1) / c.Threads
	parallel := func(f func(lo, hi int)) {
		var wg sync.WaitGroup
		for lo := 0; lo < n; lo += chunk {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				f(lo, hi)
			}(lo, min(lo+chunk, n))
		}
		wg.Wait()
	}
	// Each thread touches its own part first, so the pages are its own.
	parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i], b[i], cc[i] = 1, 2, 0.5
		}
	})
	best := time.Duration(0)
	s := 3.0
	for p := 0; p < c.Passes; p++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		t0 := time.Now()
		parallel(func(lo, hi int) {
			aa, bb, ccc := a[lo:hi], b[lo:hi], cc[lo:hi]
			for i := range aa {
				aa[i] = bb[i] + s*ccc[i]
			}
		})
		if d := time.Since(t0); best == 0 || d < best {
			best = d
		}
	}
	if a[n-1] != 2+s*0.5 {
		return 0, fmt.Errorf("triad: wrong result %v", a[n-1])
	}
	return float64(24*int64(n)) / best.Seconds() / 1e9, nil
}

// triadCache is the measured figures by machine (triadKey).
type triadCache map[string]triadEntry

type triadEntry struct {
	GBs        float64   `json:"gb_s"`
	ArrayBytes int64     `json:"array_bytes"`
	Threads    int       `json:"threads"`
	Measured   time.Time `json:"measured"`
}

// triadKey names a machine for the cache: what changes its memory.
func triadKey(m schema.MachineInfo) string {
	return fmt.Sprintf("%s|%s|%d|%d", m.Hostname, m.CPUModel, m.Threads, m.MemoryBytes)
}

// HostBandwidth is the host memory's bandwidth: measured by the triad the
// first time on this machine, then read from the user's cache folder
// (state folder decodebench, file host-bandwidth.json). A machine with
// no cache folder is measured each time.
func HostBandwidth(ctx context.Context, m schema.MachineInfo) (Bandwidth, error) {
	memory := fmt.Sprintf("host memory (%s, %d threads)", m.CPUModel, m.Threads)
	key := triadKey(m)
	var path string
	cache := triadCache{}
	if dir, err := safefs.UserStateDir("decodebench"); err == nil {
		path = filepath.Join(dir, "host-bandwidth.json")
		if b, err := safefs.ReadNamed(path, 1<<20); err == nil {
			_ = json.Unmarshal(b, &cache)
		}
	}
	if e, ok := cache[key]; ok && e.GBs > 0 {
		return Bandwidth{GBs: e.GBs, Memory: memory, Measured: true, Source: measuredSource(e)}, nil
	}
	c := DefaultTriad(m.MemoryBytes)
	gbs, err := Triad(ctx, c)
	if err != nil {
		return Bandwidth{}, err
	}
	e := triadEntry{GBs: gbs, ArrayBytes: c.ArrayBytes, Threads: c.Threads, Measured: time.Now().UTC().Truncate(time.Second)}
	if path != "" {
		cache[key] = e
		if b, err := json.Marshal(cache); err == nil {
			_ = safefs.WriteFile(path, b, 0o644)
		}
	}
	return Bandwidth{GBs: gbs, Memory: memory, Measured: true, Source: measuredSource(e)}, nil
}

func measuredSource(e triadEntry) string {
	return fmt.Sprintf("measured: STREAM triad on %d threads, 3 arrays of %d MiB, best of 5 passes, %s",
		e.Threads, e.ArrayBytes>>20, e.Measured.Format("2006-01-02"))
}

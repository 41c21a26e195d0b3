// Package fleetbench measures check and index on a fleet's history: 1,000
// generated records (copies of the demo record, see synthrecords, each
// with its own date and its own seeded noise on every run's primary
// metric, so no two records share an analysis or a byte of runs.jsonl),
// with a cold cache (every record analysed) and a warm one (every result
// kept). The collector runs as decodebench check and index run it
// (GOGC=300 unless GOGC is set). `make bench` runs each once.
package fleetbench

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/review"
)

const records = 1000

var (
	once    sync.Once
	dir     string
	paths   []string
	genErr  error
	tempDir string
)

func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300) // as cmd/decodebench's fewerCollections
	}
	code := m.Run()
	if tempDir != "" {
		os.RemoveAll(tempDir)
	}
	os.Exit(code)
}

// fleet writes the history once per process.
func fleet(b *testing.B) (string, []string) {
	once.Do(func() {
		tempDir, genErr = os.MkdirTemp("", "fleetbench-")
		if genErr != nil {
			return
		}
		dir = filepath.Join(tempDir, "records")
		paths, genErr = synthrecords.Generate(synthrecords.Spec{
			Source: "../../docs/benchmark_results/spec-draft-epyc-2026-11-29.md", Dir: dir, N: records,
			Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), PerDay: 2, Hardware: []string{"epyc", "xeon"}, Link: true,
			Noise: 0.02, Seed: 1})
	})
	if genErr != nil {
		b.Fatal(genErr)
	}
	return dir, paths
}

func BenchmarkCheck1000(b *testing.B) {
	_, paths := fleet(b)
	b.Run("cold", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			b.StopTimer()
			cache := &review.CheckCache{Dir: b.TempDir()}
			b.StartTimer()
			mustPass(b, review.CheckAll(paths, cache))
		}
		perRecord(b, cpu)
	})
	b.Run("warm", func(b *testing.B) {
		cache := &review.CheckCache{Dir: b.TempDir()}
		mustPass(b, review.CheckAll(paths, cache))
		cpu := cpuTime()
		for b.Loop() {
			mustPass(b, review.CheckAll(paths, cache))
		}
		perRecord(b, cpu)
	})
}

func BenchmarkIndex1000(b *testing.B) {
	dir, _ := fleet(b)
	b.Run("cold", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			b.StopTimer()
			cache := &review.CheckCache{Dir: b.TempDir()}
			b.StartTimer()
			if _, err := review.Index(dir, cache); err != nil {
				b.Fatal(err)
			}
		}
		perRecord(b, cpu)
	})
	b.Run("warm", func(b *testing.B) {
		cache := &review.CheckCache{Dir: b.TempDir()}
		if _, err := review.Index(dir, cache); err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime()
		for b.Loop() {
			if _, err := review.Index(dir, cache); err != nil {
				b.Fatal(err)
			}
		}
		perRecord(b, cpu)
	})
}

// perRecord reports the time a record beside the time for all of them,
// and the CPU time (user and system, every core, since cpu) an iteration,
// which the machine's other load does not move.
func perRecord(b *testing.B, cpu time.Duration) {
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N)/records, "ms/record")
	if cpu > 0 {
		b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	}
}

func mustPass(b *testing.B, rs []review.Checked) {
	b.Helper()
	for _, r := range rs {
		if len(r.Problems) > 0 {
			b.Fatalf("%s: %v", r.Path, r.Problems[0])
		}
	}
}

// Command synthrecords writes a history of N records for benchmarks: dated
// copies of a real record (see package synthrecords), each passing
// decodebench check.
//
//	go run ./cmd/synthrecords -n 1000 -out /tmp/history
package main

import (
	"crypto/sha1"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
)

func main() {
	src := flag.String("src", "docs/benchmark_results/spec-draft-epyc-2026-11-29.md", "the record to copy")
	out := flag.String("out", "", "the records folder to write (required)")
	n := flag.Int("n", 1000, "how many records")
	start := flag.String("start", "2026-01-01", "the first record's date")
	perDay := flag.Int("per-day", 1, "records per date")
	hw := flag.String("hw", "", "comma-separated hardware slugs, cycled (default: the source's)")
	step := flag.Float64("step", 0, "a step in the arm's primary metric, relative (0.05: +5%), planted half-way")
	noise := flag.Float64("noise", 0, "relative noise on every run's primary metric")
	seed := flag.Uint64("seed", 1, "noise seed")
	flag.Parse()
	day, err := time.Parse("2006-01-02", *start)
	if *out == "" || err != nil {
		fmt.Fprintln(os.Stderr, "synthrecords: -out DIR is required and -start is YYYY-MM-DD")
		os.Exit(2)
	}
	spec := synthrecords.Spec{Source: *src, Dir: *out, N: *n, Link: true, Start: day, PerDay: *perDay, Noise: *noise, Seed: *seed}
	if *hw != "" {
		spec.Hardware = strings.Split(*hw, ",")
	}
	if *step != 0 {
		spec.Scale = func(i int) (float64, float64) {
			if i >= *n/2 {
				return 1, 1 + *step
			}
			return 1, 1
		}
		spec.Engine = func(i int) (string, string) {
			return fmt.Sprintf("version: synthetic build %d", 1000+i), fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(i))))
		}
	}
	paths, err := synthrecords.Generate(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthrecords:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d records in %s\n", len(paths), *out)
}

package recorder

import (
	"bytes"
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// MemoryPerByte and RunOverhead bound what a run read from runs.jsonl
// may hold in memory (LineCost): MemoryPerByte times its line and
// RunOverhead. A reader's budget (review's runsBudget) counts the file
// at MemoryPerByte and RunOverhead a line. Four is a run of token ids of
// one digit (`1,`, 8 bytes held for 2 read); a run decodebench writes
// holds at most 2.2 times its line (the committed records), a line of
// small map entries or empty objects (`"a":1,`, `{},`) 10 to 50 times.
const (
	MemoryPerByte = 4
	RunOverhead   = 4 << 10
)

// MaxMetricNames bounds the distinct names of a runs.jsonl's metrics,
// engine timings and counters (in its runs, their requests and streams):
// the analysis compares every metric, so a file of runs that each name
// thousands made check take minutes (a 174 MB file, 80,000 names: 163 s,
// 1.0 GB). A campaign's runs name about thirty; a scenario's own bounds
// keep them far below this.
const MaxMetricNames = 1024

// runLimits refuses, as a runs.jsonl is read, a line whose run would
// hold more than MemoryPerByte times its line and RunOverhead in memory
// (LineCost, before it is decoded), and a file whose runs name more than
// MaxMetricNames metrics.
type runLimits struct {
	name string
	seen map[string]struct{}
}

// lines judges each line of chunk b, whose first is line first+1, before
// any is decoded.
func (l *runLimits) lines(b []byte, first int) error {
	for n := first + 1; len(b) > 0; n++ {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		b = rest
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if c, most := LineCost(line), MemoryPerByte*int64(len(line))+RunOverhead; c > most {
			return fmt.Errorf("%s:%d: its run would hold about %d bytes in memory for its %d-byte line, more than %d times its line and %d (a run decodebench writes holds at most 2.2 times its line): refused before it is decoded",
				l.name, n, c, len(line), MemoryPerByte, RunOverhead)
		}
	}
	return nil
}

// names counts the names run r (of line) gives its metrics, engine
// timings and counters.
func (l *runLimits) names(line int, r *schema.Run) error {
	if l.seen == nil {
		l.seen = map[string]struct{}{}
	}
	add := func(m ...map[string]float64) error {
		for _, mm := range m {
			for k := range mm {
				if err := l.add(line, k); err != nil {
					return err
				}
			}
		}
		return nil
	}
	counters := func(m map[string]schema.CounterReading) error {
		for k := range m {
			if err := l.add(line, k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := add(r.Metrics, r.EngineTimings); err != nil {
		return err
	}
	if err := counters(r.Counters); err != nil {
		return err
	}
	for _, q := range r.Requests {
		if err := add(q.Metrics, q.EngineTimings); err != nil {
			return err
		}
	}
	for _, s := range r.Streams {
		if err := counters(s.Counters); err != nil {
			return err
		}
	}
	return nil
}

func (l *runLimits) add(line int, name string) error {
	if _, ok := l.seen[name]; ok {
		return nil
	}
	if len(l.seen) >= MaxMetricNames {
		return fmt.Errorf("%s:%d: its runs name more than %d distinct metrics, engine timings and counters, the most decodebench reads (a campaign's name about thirty): refused", l.name, line, MaxMetricNames)
	}
	l.seen[name] = struct{}{}
	return nil
}

package engine

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
)

// FuzzReadEvents: the SSE parser never panics, and no event carries more
// data than the input held.
func FuzzReadEvents(f *testing.F) {
	if b, err := os.ReadFile("testdata/completion-stream.sse"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("data: [DONE]\n\n"))
	f.Add([]byte("error: {\"x\":1}\n\ndata: a\ndata: b\n\n:comment\n"))
	f.Add([]byte("data: {\"content\":\"\\u00e9\"}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		total := 0
		ReadEvents(bytes.NewReader(in), time.Now, func(e Event) error {
			total += len(e.Data)
			if e.Field != "data" && e.Field != "error" {
				t.Fatalf("field %q", e.Field)
			}
			return nil
		})
		if total > len(in) {
			t.Fatalf("events hold %d bytes from %d of input", total, len(in))
		}
	})
}

// FuzzMetrics: parsing Prometheus text and selecting a series never panics,
// and a selector with labels never sums more series than one without.
func FuzzMetrics(f *testing.F) {
	for _, p := range []string{"testdata/llama-server-metrics-classic.txt", "testdata/llama-server-metrics-draft.txt"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, "llamacpp:spec_decode_num_accepted_tokens_per_pos_total", `position="1"`)
		}
	}
	f.Add([]byte("# TYPE a counter\na{b=\"c\"} 1\na 2\n"), "a", `b="c"`)
	f.Fuzz(func(t *testing.T, text []byte, name, labels string) {
		m, err := ParseMetrics(bytes.NewReader(text))
		if err != nil {
			return
		}
		sel, err := scenarios.ParseMetricSelector(name + "{" + labels + "}")
		if err != nil {
			return
		}
		m.Value(sel)
		m.Value(scenarios.MetricSelector{Name: sel.Name})
	})
}

// FuzzLogCounter: log-line extraction never panics on any regex with one
// group and any log text; a non-numeric capture is an error, not a value.
func FuzzLogCounter(f *testing.F) {
	if b, err := os.ReadFile("testdata/llama-server-draft.log"); err == nil {
		f.Add(`draft acceptance = [0-9.]+ \(\s*(\d+) accepted`, string(b))
	}
	f.Add(`rounds=(\d+)`, "DFlash diagnostics block_size=4 rounds=79 proposed_tokens=300\nwarm-up rounds=0\n")
	f.Add(`x=(\S+)`, "x=1e3 x=NaN x=abc")
	f.Fuzz(func(t *testing.T, expr, text string) {
		re, err := regexp.Compile(expr)
		if err != nil || re.NumSubexp() != 1 {
			return
		}
		sum, n, err := SumLogMatches(re, strings.Split(text, "\n"))
		if err == nil && n == 0 && sum != 0 {
			t.Fatalf("no matches but sum %v", sum)
		}
	})
}

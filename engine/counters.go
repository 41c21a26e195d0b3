package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Counter reads one arm-distinguishing counter from a run.
type Counter struct {
	Name string
	Kind schema.SourceKind
	Expr string
	sel  scenarios.MetricSelector
	re   *regexp.Regexp
	// text is the policy of a text source (props, version), whose
	// capture pattern narrows what it read.
	text *scenarios.CounterPolicy
	// Phase is the log lines a log counter reads.
	Phase schema.LogPhase
}

// Reading is one counter's value in one run.
type Reading struct {
	Value float64 `json:"value"`
	// Note says how the value was found when that matters to a reader
	// (a metric that was absent, how many log lines matched).
	Note string `json:"note,omitempty"`
	// Absent is set when the source did not appear at all (no such
	// metric, no such reply field, no matching log line) and was read as 0.
	Absent bool `json:"absent,omitempty"`
	// Impossible says what the source reported when it could not be true.
	Impossible *schema.ImpossibleValue `json:"-"`
	// Text is what a text source read (after its capture pattern); Value
	// is its number when it is one.
	Text string `json:"text,omitempty"`
}

// Observation is everything a counter can be read from in one run.
type Observation struct {
	Before, After Metrics        // scrapes around the measured request
	Reply         map[string]any // the engine's final reply
	Window        []string       // engine log lines of the measured window
	// Startup is the engine's log lines from its launch until it was
	// ready (read only when a counter asks for them).
	Startup []string
	// Props is the server's GET /props reply after the measured request
	// (read only when a counter asks for it).
	Props map[string]any
	// Version is the version output of the arm's engine, taken when the
	// campaign started.
	Version string
}

// NewCounter compiles a scenario counter.
func NewCounter(c scenarios.CounterPolicy) (*Counter, error) {
	expr := c.Expr
	k := &Counter{Name: c.Name, Kind: c.Kind, Expr: expr, Phase: c.Phase}
	switch c.Kind {
	case schema.SourceMetric:
		sel, err := scenarios.ParseMetricSelector(expr)
		if err != nil {
			return nil, err
		}
		k.sel = sel
	case schema.SourceLog:
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("counter %s: %w", c.Name, err)
		}
		k.re = re
	case schema.SourceJSON:
	case schema.SourceProps, schema.SourceVersion:
		k.text = &c
	default:
		return nil, fmt.Errorf("counter %s: no source", c.Name)
	}
	return k, nil
}

// NeedsMetrics reports whether the counter reads the metrics endpoint.
func (c *Counter) NeedsMetrics() bool { return c.Kind == schema.SourceMetric }

// NeedsStartup reports whether the counter reads the engine's start-up
// log lines.
func (c *Counter) NeedsStartup() bool { return c.Phase == schema.PhaseStartup }

// NeedsProps reports whether the counter reads the server's GET /props.
func (c *Counter) NeedsProps() bool { return c.Kind == schema.SourceProps }

// readText reads a text source and applies its capture pattern.
func (c *Counter) readText(o Observation) (Reading, error) {
	var raw string
	switch c.Kind {
	case schema.SourceProps:
		t, found, err := JSONText(o.Props, c.Expr)
		if err != nil {
			return Reading{}, fmt.Errorf("counter %s: GET %s: %w", c.Name, PropsPath, err)
		}
		if !found {
			return Reading{Note: "field absent from GET " + PropsPath, Absent: true}, nil
		}
		raw = t
	case schema.SourceVersion:
		if strings.TrimSpace(o.Version) == "" {
			return Reading{Note: "the engine printed no version", Absent: true}, nil
		}
		raw = o.Version
	}
	t, ok := c.text.CaptureText(raw)
	if !ok {
		return Reading{Note: fmt.Sprintf("capture %s matches nothing in %q", c.text.Capture, abbrevText(raw, 80)), Absent: true}, nil
	}
	rd := Reading{Text: t}
	if v, ok := scenarios.TextNumber(t); ok {
		rd.Value = v
	}
	return rd, nil
}

func abbrevText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Read returns the counter's value in one run. A value that is not a
// finite number (a metric page's NaN, a reply field "Infinity", a sum that
// overflowed) or is past schema.MaxPlausible cannot be true: it is read as absent, with a note, and
// Impossible says what it was.
func (c *Counter) Read(o Observation) (Reading, error) {
	rd, err := c.read(o)
	if err != nil {
		return rd, err
	}
	if iv, bad := Impossible("counter "+c.Name, rd.Value, true); bad {
		what := "not a finite number"
		if iv.Why == schema.TooLarge {
			what = "too large to be true"
		}
		return Reading{Note: "the engine reported " + iv.Value + ", " + what + "; recorded as absent", Absent: true, Impossible: &iv}, nil
	}
	return rd, nil
}

func (c *Counter) read(o Observation) (Reading, error) {
	switch c.Kind {
	case schema.SourceMetric:
		after, okA := o.After.Value(c.sel)
		before, okB := o.Before.Value(c.sel)
		if !okA && !okB {
			return Reading{Value: 0, Note: "metric absent from the endpoint; read as 0", Absent: true}, nil
		}
		return Reading{Value: after - before}, nil
	case schema.SourceJSON:
		v, found, err := JSONPath(o.Reply, c.Expr)
		if err != nil {
			return Reading{}, fmt.Errorf("counter %s: %w", c.Name, err)
		}
		if !found {
			return Reading{Value: 0, Note: "field absent from the reply; read as 0", Absent: true}, nil
		}
		return Reading{Value: v}, nil
	case schema.SourceProps, schema.SourceVersion:
		return c.readText(o)
	case schema.SourceLog:
		lines, where := o.Window, "the measured window"
		if c.Phase == schema.PhaseStartup {
			lines, where = o.Startup, "the engine's start-up"
		}
		sum, n, err := SumLogMatches(c.re, lines)
		if err != nil {
			return Reading{}, fmt.Errorf("counter %s: %w", c.Name, err)
		}
		return Reading{Value: sum, Note: fmt.Sprintf("%d matching log lines in %s", n, where), Absent: n == 0}, nil
	}
	return Reading{}, fmt.Errorf("counter %s: unknown kind %v", c.Name, c.Kind)
}

// JSONPath follows a dotted path into a decoded JSON object. Numbers are
// returned as is, booleans as 0 or 1, numeric strings parsed; a missing
// field is reported as not found.
func JSONPath(obj map[string]any, path string) (float64, bool, error) {
	var cur any = obj
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return 0, false, nil
		}
		cur, ok = m[part]
		if !ok {
			return 0, false, nil
		}
	}
	switch v := cur.(type) {
	case nil:
		return 0, false, nil
	case float64:
		return v, true, nil
	case bool:
		if v {
			return 1, true, nil
		}
		return 0, true, nil
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, true, fmt.Errorf("%s is the string %q, not a number", path, v)
		}
		return f, true, nil
	default:
		return 0, true, fmt.Errorf("%s is a %T, not a number", path, v)
	}
}

// SumLogMatches applies re (one capture group) to every line and sums the
// captured numbers; it returns the sum and how many matches there were.
func SumLogMatches(re *regexp.Regexp, lines []string) (float64, int, error) {
	sum, n := 0.0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, MarkerPrefix) {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			if len(m) < 2 {
				continue
			}
			f, err := strconv.ParseFloat(m[1], 64)
			if err != nil {
				return 0, n, fmt.Errorf("log line %q: captured %q is not a number", l, m[1])
			}
			sum += f
			n++
		}
	}
	return sum, n, nil
}

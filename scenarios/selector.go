package scenarios

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// MetricSelector names one Prometheus series: a metric name and the labels
// it must carry, written `name` or `name{label="v",other="w"}`.
type MetricSelector struct {
	Name   string
	Labels map[string]string
}

var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ParseMetricSelector parses `name` or `name{label="v",...}`.
func ParseMetricSelector(s string) (MetricSelector, error) {
	s = strings.TrimSpace(s)
	name, rest, hasLabels := strings.Cut(s, "{")
	sel := MetricSelector{Name: name, Labels: map[string]string{}}
	if !metricName.MatchString(name) {
		return sel, fmt.Errorf("metric %q: %q is not a valid Prometheus metric name", s, name)
	}
	if !hasLabels {
		return sel, nil
	}
	body, ok := strings.CutSuffix(rest, "}")
	if !ok {
		return sel, fmt.Errorf("metric %q: missing closing }", s)
	}
	for body = strings.TrimSpace(body); body != ""; {
		k, after, ok := strings.Cut(body, "=")
		k = strings.TrimSpace(k)
		if !ok || !labelName.MatchString(k) {
			return sel, fmt.Errorf("metric %q: want label=\"value\" pairs", s)
		}
		after = strings.TrimSpace(after)
		if !strings.HasPrefix(after, `"`) {
			return sel, fmt.Errorf("metric %q: label %s: value must be quoted", s, k)
		}
		// Find the closing quote, honouring backslash escapes.
		end := -1
		for i := 1; i < len(after); i++ {
			if after[i] == '\\' {
				i++
				continue
			}
			if after[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			return sel, fmt.Errorf("metric %q: label %s: unterminated value", s, k)
		}
		v, err := strconv.Unquote(after[:end+1])
		if err != nil {
			return sel, fmt.Errorf("metric %q: label %s: %v", s, k, err)
		}
		sel.Labels[k] = v
		body = strings.TrimSpace(after[end+1:])
		body = strings.TrimSpace(strings.TrimPrefix(body, ","))
	}
	return sel, nil
}

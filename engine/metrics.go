package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/decodebench/decodebench/scenarios"
)

// Metrics is one scrape of a Prometheus text endpoint.
type Metrics map[string]*dto.MetricFamily

// ParseMetrics parses Prometheus text exposition format. llama-server's
// names contain colons (llamacpp:tokens_predicted_total), which the legacy
// name rules allow.
func ParseMetrics(r io.Reader) (Metrics, error) {
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parse metrics: %w", err)
	}
	return Metrics(fams), nil
}

// Scrape fetches and parses baseURL+path.
func Scrape(ctx context.Context, baseURL, path string) (Metrics, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", path, quoteErr(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxQuotedBytes+1))
		return nil, fmt.Errorf("scrape %s: HTTP %d: %s (llama-server needs --metrics for this endpoint)", path, resp.StatusCode, Quote(string(b)))
	}
	// Read whole before parsing: a page past the bound is an error, not
	// a page cut short that parses.
	b, err := readBounded(resp.Body, MaxMetricsBytes, "the metrics page "+path)
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", path, quoteErr(err))
	}
	if n := bytes.Count(b, []byte{'\n'}); n > MaxMetricsLines {
		return nil, fmt.Errorf("scrape %s: the metrics page has %d lines, more than the %d decodebench parses: %w", path, n, MaxMetricsLines, ErrTooLarge)
	}
	m, err := ParseMetrics(bytes.NewReader(b))
	return m, quoteErr(err)
}

// Value returns the sum of the samples that match sel (a selector without
// labels matches every series of the metric), and whether the metric was
// present at all.
func (m Metrics) Value(sel scenarios.MetricSelector) (float64, bool) {
	fam, ok := m[sel.Name]
	if !ok {
		return 0, false
	}
	sum, found := 0.0, false
	for _, s := range fam.GetMetric() {
		if !labelsMatch(s.GetLabel(), sel.Labels) {
			continue
		}
		found = true
		switch {
		case s.Counter != nil:
			sum += s.GetCounter().GetValue()
		case s.Gauge != nil:
			sum += s.GetGauge().GetValue()
		case s.Untyped != nil:
			sum += s.GetUntyped().GetValue()
		}
	}
	return sum, found
}

func labelsMatch(have []*dto.LabelPair, want map[string]string) bool {
	for k, v := range want {
		ok := false
		for _, l := range have {
			if l.GetName() == k && l.GetValue() == v {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

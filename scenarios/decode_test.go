package scenarios

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Binary garbage is refused as invalid YAML at the first byte a text file
// cannot hold, not at no position.
func TestBinaryGarbageHasPosition(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"\x00\x01\xff\xfe garbage", "g.yaml:1:1: invalid YAML: control character U+0000"},
		{"feature: x\ntitle: a\xffb\n", "g.yaml:2:9: invalid YAML: byte 0xff is not UTF-8"},
		{"feature: x\n\ttitle: \x1b[0m\n", "g.yaml:2:9: invalid YAML: control character U+001B"},
	}
	for _, tt := range tests {
		_, _, err := Parse("g.yaml", ".", []byte(tt.src), Options{LookupEnv: noEnv})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %s…", tt.src, err, tt.want)
		}
	}
}

// Every problem is reported once: the warnings of a refused scenario are in
// its error, not also returned beside it.
func TestProblemsReportedOnce(t *testing.T) {
	src := strings.Replace(string(mustShipped(t)), `"--port", "${PORT}", `, "", 1)
	src = strings.Replace(src, "order: rotate", "order: shuffle", 1)
	s, warns, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if s != nil || err == nil {
		t.Fatalf("loaded: %v", err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings returned beside the error, so callers print them twice: %v", warns)
	}
	if n := strings.Count(err.Error(), "no ${PORT}"); n != 1 {
		t.Errorf("the warning appears %d times in the error:\n%v", n, err)
	}
	if !strings.Contains(err.Error(), "shuffle") {
		t.Errorf("error lost: %v", err)
	}
}

// An empty value is the key left out: its default applies, where counted
// as given it left the zero value and `max_spread:` switched the spread
// gate off (its default is 4%), `warmup:` skipped the warmups and
// `min_effect: ~` let any change count.
func TestEmptyValueTakesTheDefault(t *testing.T) {
	src, err := os.ReadFile("testdata/bad/bad-fraction.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(src), "gates: {max_spread: four percent}", "gates: {max_spread: , max_drift: null}\nstats: {min_effect: ~, alpha: }", 1)
	y = strings.Replace(y, "  warmup: 1\n", "  warmup:\n", 1)
	s, errs, err := Parse("t.yaml", ".", []byte(y), Options{LookupEnv: noEnv})
	if err != nil || len(errs.Fatal()) > 0 {
		t.Fatalf("%v %v", err, errs)
	}
	g, st := s.Gates, s.Stats
	if g.MaxSpread != DefaultMaxSpread || g.MaxDrift != DefaultMaxDrift || st.MinEffect != DefaultMinEffect || st.Alpha != DefaultAlpha || s.Schedule.Warmup != defaultWarmup {
		t.Errorf("max_spread %s, max_drift %s, min_effect %s, alpha %s, warmup %d: want the defaults %v, %v, %v, %v, %d",
			g.MaxSpread, g.MaxDrift, st.MinEffect, st.Alpha, s.Schedule.Warmup, DefaultMaxSpread, DefaultMaxDrift, DefaultMinEffect, DefaultAlpha, defaultWarmup)
	}
}

// yaml.v3's own errors, the decoding's safety net, are placed at the
// column of the line's first node and name no Go type; a second byte
// order mark is refused where it stands (yaml.v3 read every key after it
// without its first letter, "itle").
func TestFallbackAndBOMMessages(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("schedule:\n  rounds: 3\n  seed: 1\n"), &doc); err != nil {
		t.Fatal(err)
	}
	errs := decodeErrors("t.yaml", doc.Content[0], &yaml.TypeError{Errors: []string{"line 3: field seed already set in type scenarios.Schedule"}})
	if got, want := errs.Error(), "t.yaml:3:3: field seed already set"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	src := "\ufefffeature: x\n\ufefftitle: y\n"
	_, _, err := Parse("g.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err == nil || !strings.HasPrefix(err.Error(), "g.yaml:2:1: invalid YAML: a byte order mark (U+FEFF) past the start") || strings.Contains(err.Error(), "itle") {
		t.Errorf("second BOM: %v", err)
	}
}

package review

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// With a shared old record, the combination is each new record weighted
// by its inverse variance, minus the old record, whose variance counts
// once and whole; Cochran's Q is the squared difference of the sessions
// over the variance of that difference, in which the old record cancels.
// With sessions of their own, it is plain inverse-variance weighting.
func TestCombineByInverseVariance(t *testing.T) {
	f := &RatioFamily{Alpha: 0.05, Comparisons: 1, Confidence: 0.95}
	old, n1, n2, old2 := 0.10, -0.05, -0.09, 0.02
	so, s1, s2, so2 := 0.02, 0.01, 0.03, 0.015
	recs := []RecordRatio{{Log: old, SE: so}, {Log: n1, SE: s1}, {Log: n2, SE: s2}}

	a := ArmConfirmation{HigherIsBetter: true, Records: recs}
	a.combine([][2]int{{0, 1}, {0, 2}}, f)
	w1, w2 := 1/(s1*s1), 1/(s2*s2)
	wantMu := (w1*n1+w2*n2)/(w1+w2) - old
	wantSE := math.Sqrt(1/(w1+w2) + so*so)
	wantQ := (n1 - n2) * (n1 - n2) / (s1*s1 + s2*s2)
	if !near(a.Combined.Log, wantMu, 1e-12) || !near(a.Combined.SE, wantSE, 1e-12) || !near(a.Q, wantQ, 1e-9) {
		t.Errorf("shared old: μ %v SE %v Q %v, want %v %v %v", a.Combined.Log, a.Combined.SE, a.Q, wantMu, wantSE, wantQ)
	}
	if !near(a.QP, math.Erfc(math.Sqrt(wantQ/2)), 1e-9) || a.DF != 1 {
		t.Errorf("Q's p %v on %d df, want %v on 1", a.QP, a.DF, math.Erfc(math.Sqrt(wantQ/2)))
	}
	if !near(a.Sessions[1].SE, math.Hypot(s2, so), 1e-12) || !near(a.Sessions[0].Log, n1-old, 1e-12) {
		t.Errorf("sessions %+v", a.Sessions)
	}

	a = ArmConfirmation{HigherIsBetter: true, Records: append(recs, RecordRatio{Log: old2, SE: so2})}
	a.combine([][2]int{{0, 1}, {3, 2}}, f)
	d1, d2 := n1-old, n2-old2
	v1, v2 := s1*s1+so*so, s2*s2+so2*so2
	wantMu = (d1/v1 + d2/v2) / (1/v1 + 1/v2)
	wantSE = math.Sqrt(1 / (1/v1 + 1/v2))
	wantQ = (d1-wantMu)*(d1-wantMu)/v1 + (d2-wantMu)*(d2-wantMu)/v2
	if !near(a.Combined.Log, wantMu, 1e-12) || !near(a.Combined.SE, wantSE, 1e-12) || !near(a.Q, wantQ, 1e-9) {
		t.Errorf("own old: μ %v SE %v Q %v, want %v %v %v", a.Combined.Log, a.Combined.SE, a.Q, wantMu, wantSE, wantQ)
	}
	if wantI2 := (wantQ - 1) / wantQ; wantQ > 1 && !near(a.I2, wantI2, 1e-9) {
		t.Errorf("I² %v, want %v", a.I2, wantI2)
	}
	// The interval is at the family's confidence, on the ratio's scale.
	z := zQuantile(0.975)
	if !near(a.Combined.Lo, math.Expm1(wantMu-z*wantSE), 1e-12) || !near(a.Combined.Change, math.Expm1(wantMu), 1e-12) {
		t.Errorf("combined %+v", a.Combined)
	}
}

// Each outcome, decided in order.
func TestConfirmOutcomes(t *testing.T) {
	f := &RatioFamily{Alpha: 0.05, Comparisons: 2, Confidence: 0.975}
	arm := func(alarm, higher bool, logs ...float64) ArmConfirmation {
		a := ArmConfirmation{Alarm: alarm, HigherIsBetter: higher}
		for _, l := range logs {
			a.Records = append(a.Records, RecordRatio{Log: l, SE: 0.01})
		}
		return a
	}
	for _, c := range []struct {
		name string
		a    ArmConfirmation
		rule ConfirmRule
		want ConfirmOutcome
	}{
		{"both sessions 10% worse", arm(true, true, 0, -0.10, -0.10), DefaultConfirmRule, Raised},
		{"a latency 10% longer in both", arm(true, false, 0, 0.10, 0.10), DefaultConfirmRule, Raised},
		{"no alarm in the first session", arm(false, true, 0, -0.10, -0.10), DefaultConfirmRule, NoAlarm},
		{"a second session far from the first", arm(true, true, 0, -0.10, -0.01), DefaultConfirmRule, SessionsDisagree},
		{"far apart, but each a significant regression", arm(true, true, 0, -0.15, -0.06), DefaultConfirmRule, Raised},
		{"far apart, each significant, but Q alone vetoes", arm(true, true, 0, -0.15, -0.06), ConfirmRule{HeterogeneityAlpha: 0.10, Agreement: SecondSignificant}, SessionsDisagree},
		// A marginal first alarm (not significant by the combination's
		// normal reading of its interval) and a rerun that sees a far
		// larger regression: the rerun confirms it, as one that sees the
		// same does; a two-sided veto dropped it.
		{"a rerun far worse than a marginal first", arm(true, true, 0, -0.02, -0.30), DefaultConfirmRule, Raised},
		{"a rerun worse than a marginal first", arm(true, true, 0, -0.02, -0.06), DefaultConfirmRule, Raised},
		{"a rerun far worse, the veto two-sided", arm(true, true, 0, -0.02, -0.30), ConfirmRule{HeterogeneityAlpha: 0.10, Agreement: SecondSignificant, EachSignificantOverrides: true}, SessionsDisagree},
		{"a latency rerun far longer than a marginal first", arm(true, false, 0, 0.02, 0.30), DefaultConfirmRule, Raised},
		{"a rerun far milder than the first", arm(true, false, 0, 0.30, 0.02), DefaultConfirmRule, SessionsDisagree},
		{"the second session alone not significant", arm(true, true, 0, -0.04, -0.02), DefaultConfirmRule, NotAgreed},
		{"within chance but the other way", arm(true, true, 0, -0.015, 0.002), ConfirmRule{HeterogeneityAlpha: 0.10, Agreement: SameDirection}, NotAgreed},
		{"the same direction suffices", arm(true, true, 0, -0.04, -0.02), ConfirmRule{HeterogeneityAlpha: 0.10, Agreement: SameDirection}, Raised},
		{"combined not significant", arm(true, true, 0, -0.02, -0.02), ConfirmRule{Agreement: SameDirection}, NotSignificant},
		{"combined below the threshold", arm(true, true, 0, -0.03, -0.03), DefaultConfirmRule, BelowThreshold},
		{"a record without an interval", withoutInterval(arm(true, true, 0, -0.10, -0.10)), DefaultConfirmRule, NoEstimate},
		{"ratios no float holds", arm(true, false, 0, 0.10, 1400), DefaultConfirmRule, NoEstimate},
	} {
		a := c.a
		threshold := 0.02
		if c.want == BelowThreshold {
			threshold = 0.04
		}
		a.judge(c.rule, f, threshold)
		if a.Outcome != c.want {
			t.Errorf("%s: %s (combined %+v, Q p %v), want %s", c.name, a.Outcome, a.Combined, a.QP, c.want)
		}
	}
}

// A confirmation that cannot be computed keeps the first session's
// alarm: a rerun too short for an interval, or of values no float's ratio
// holds, cannot dismiss it (the gate exits 1), and says so.
func TestConfirmFailsClosed(t *testing.T) {
	old, nu := simRecord(1, 1), simRecord(2, 0.9)
	d := Compare("old.md", old, "new.md", nu, DiffOptions{Threshold: 0.02})
	short := simRecord(3, 0.9)
	short.Runs = short.Runs[:2]
	wild := simRecord(5, 0.9)
	for i := range wild.Runs {
		if i%2 == 0 {
			wild.Runs[i].Metrics[schema.DecodeTokS] = 1e300
		} else {
			wild.Runs[i].Metrics[schema.DecodeTokS] = 1e-300
		}
	}
	for name, nu2 := range map[string]*schema.Record{"one run an arm": short, "values 1e600 apart": wild} {
		c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: nu2}, ConfirmOptions{})
		if len(c.Arms) != 1 || c.Arms[0].Outcome != NoEstimate || !c.Raised() {
			t.Errorf("%s: %+v, raised %v: want no-estimate, the alarm standing", name, c.Arms, c.Raised())
			continue
		}
		var text bytes.Buffer
		if err := c.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "alarm STANDS") || !strings.Contains(text.String(), "Not judged") {
			t.Errorf("%s: the text does not say the alarm stands:\n%s", name, text.String())
		}
		if _, err := json.Marshal(c); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func withoutInterval(a ArmConfirmation) ArmConfirmation {
	a.Records[2].SE = 0
	return a
}

// simRecord is a campaign of base and arm, ratio of arm to base, CV 2%.
func simRecord(seed uint64, ratio float64) *schema.Record {
	return sessionHost{CV: 0.02, Rounds: 8}.campaignOf(rand.New(rand.NewPCG(seed, 1)), ratio)
}

// A regression of 10% in two campaigns raises the alarm; the same first
// pair with a second campaign that shows no change does not; a second
// session that is the first's own campaign, or of another scenario, or
// not fit to compare, confirms nothing.
func TestConfirm(t *testing.T) {
	old, nu := simRecord(1, 1), simRecord(2, 0.9)
	d := Compare("old.md", old, "new.md", nu, DiffOptions{Threshold: 0.02})
	if !d.Regressed() {
		t.Fatalf("the first pair raises no alarm: %+v", d.Ratios)
	}
	c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: simRecord(3, 0.9)}, ConfirmOptions{})
	if !c.Raised() || len(c.Arms) != 1 || c.Arms[0].Outcome != Raised || !c.Sessions[1].SharesOld {
		t.Errorf("a confirmed regression: %+v", c)
	}
	c = Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: simRecord(3, 1)}, ConfirmOptions{})
	if c.Raised() || c.Arms[0].Outcome != SessionsDisagree {
		t.Errorf("a second session without the change: %+v", c.Arms)
	}
	c = Confirm(d, old, nu, SecondSession{OldPath: "old2.md", Old: simRecord(4, 1), NewPath: "new2.md", New: simRecord(3, 0.9)}, ConfirmOptions{})
	if !c.Raised() || c.Sessions[1].SharesOld || len(c.Arms[0].Records) != 4 {
		t.Errorf("a confirmed regression with a session of its own: %+v", c)
	}

	refused := func(name string, second SecondSession, force bool, want string) {
		t.Helper()
		c := Confirm(d, old, nu, second, ConfirmOptions{Force: force})
		if len(c.Refused) == 0 || !strings.Contains(strings.Join(c.Refused, "\n"), want) || c.Raised() || len(c.Arms) > 0 {
			t.Errorf("%s: refused %q, want %q", name, c.Refused, want)
		}
	}
	refused("the first new record again", SecondSession{NewPath: "new.md", New: nu}, true, "the same campaign as the first session's new record")
	refused("the first new record by another path", SecondSession{NewPath: filepath.Join("x", "..", "new.md"), New: simRecord(3, 0.9)}, true, "the same campaign as the first session's new record")
	refused("a copy of the first new record's runs", SecondSession{NewPath: "copy.md", New: sameRuns(nu)}, true, "the same campaign as the first session's new record")
	refused("the old record as its own old", SecondSession{OldPath: "old.md", Old: old, NewPath: "new2.md", New: simRecord(3, 0.9)}, true, "the second session's old record is the same campaign as the first session's old record")
	refused("a re-timed copy of the first new record's runs", SecondSession{NewPath: "copy.md", New: retimed(nu)}, true, "the same campaign as the first session's new record")
	elsewhere := simRecord(3, 0.9)
	elsewhere.Hardware, elsewhere.Machine.CPUModel = "xeon", "Intel Xeon"
	refused("a rerun on another machine", SecondSession{NewPath: "new2.md", New: elsewhere}, false, "the second session's new record differs from the first's in hardware slug (xeon, not —)")
	refused("a rerun on another machine", SecondSession{NewPath: "new2.md", New: elsewhere}, false, "in CPU (Intel Xeon, not —)")
	ownOld := simRecord(4, 1)
	ownOld.Engine.Version = "b9999"
	refused("an old record of another engine build", SecondSession{OldPath: "old2.md", Old: ownOld, NewPath: "new2.md", New: simRecord(3, 0.9)}, false, "the second session's old record differs from the first's in engine version")
	if c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: elsewhere}, ConfirmOptions{Force: true}); len(c.Refused) > 0 || !c.Raised() {
		t.Errorf("--force with a rerun on another machine: refused %q, arms %+v", c.Refused, c.Arms)
	}
	// A rerun whose arm loaded another CPU backend: the binary, its
	// version and commit are the same, the build that ran is not.
	loaded := func(lib string) []schema.ArmsLoaded {
		return []schema.ArmsLoaded{{Arms: []string{"base", "arm"}, Libraries: []schema.FileSum{{Path: lib, SHA256: "ab12"}}}}
	}
	nu.Loaded = loaded("libggml-cpu-zen4.so")
	otherLibs := simRecord(3, 0.9)
	otherLibs.Loaded = loaded("libggml-cpu-haswell.so")
	refused("a rerun that loaded other libraries", SecondSession{NewPath: "new2.md", New: otherLibs}, false, "the second session's new record differs from the first's in libraries loaded by arm arm")
	sameLibs := simRecord(3, 0.9)
	sameLibs.Loaded = loaded("libggml-cpu-zen4.so")
	if c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: sameLibs}, ConfirmOptions{}); len(c.Refused) > 0 || !c.Raised() {
		t.Errorf("a rerun that loaded the same libraries: refused %q", c.Refused)
	}
	nu.Loaded = nil
	bad := simRecord(3, 0.9)
	bad.Verdict = schema.Inconclusive
	refused("an inconclusive rerun", SecondSession{NewPath: "new2.md", New: bad}, false, "the second session's new record's verdict is INCONCLUSIVE")
	if c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: bad}, ConfirmOptions{Force: true}); len(c.Refused) > 0 {
		t.Errorf("--force still refuses an inconclusive rerun: %q", c.Refused)
	}
	other := simRecord(3, 0.9)
	other.Scenario.Baseline = "arm"
	refused("another baseline", SecondSession{NewPath: "new2.md", New: other}, true, "compares its arms with arm")
	nu.Scenario.Hash, other = "aaaa", simRecord(3, 0.9)
	other.Scenario.Hash = "bbbb"
	refused("another scenario", SecondSession{NewPath: "new2.md", New: other}, false, "ran another scenario than the first session's new record")
	if c := Confirm(d, old, nu, SecondSession{NewPath: "new2.md", New: other}, ConfirmOptions{Force: true}); len(c.Refused) > 0 || len(c.Conditions) == 0 {
		t.Errorf("--force: refused %q, conditions %+v", c.Refused, c.Conditions)
	}
}

// retimed is a copy of a record whose every time moved by an hour and
// whose runs.jsonl and logs are other files: only its runs' values are
// the original's.
func retimed(r *schema.Record) *schema.Record {
	c := *r
	c.Method.Started = r.Method.Started.Add(time.Hour)
	c.Files = []schema.FileSum{{Path: "runs.jsonl", SHA256: "cd34"}}
	c.Runs = nil
	for _, run := range r.Runs {
		run.Start = run.Start.Add(time.Hour)
		run.Metrics = maps.Clone(run.Metrics)
		c.Runs = append(c.Runs, run)
	}
	return &c
}

// sameRuns is a copy of a record that names the same runs.jsonl.
func sameRuns(r *schema.Record) *schema.Record {
	c := *r
	c.Files = []schema.FileSum{{Path: "runs.jsonl", SHA256: "ab12"}}
	r.Files = c.Files
	return &c
}

// Every value from a record is escaped: a path or an arm's name cannot
// move the terminal's cursor or break out of a Markdown table.
func TestConfirmationEscapes(t *testing.T) {
	old, nu := simRecord(1, 1), simRecord(2, 0.9)
	hostile := "x\x1b[2J|`y`\u202e<img src=a>\n"
	for _, r := range []*schema.Record{old, nu} {
		r.Scenario.Arms[1].Name = "arm" + hostile
		for i := range r.Runs {
			if r.Runs[i].Arm == "arm" {
				r.Runs[i].Arm += hostile
			}
		}
	}
	nu2 := simRecord(3, 0.9)
	nu2.Scenario.Arms[1].Name = "arm" + hostile
	for i := range nu2.Runs {
		if nu2.Runs[i].Arm == "arm" {
			nu2.Runs[i].Arm += hostile
		}
	}
	d := Compare("old"+hostile+".md", old, "new.md", nu, DiffOptions{Threshold: 0.02})
	c := Confirm(d, old, nu, SecondSession{NewPath: "new2" + hostile + ".md", New: nu2}, ConfirmOptions{})
	if !c.Raised() {
		t.Fatalf("not raised: %+v", c.Arms)
	}
	var text, md bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if strings.ContainsAny(out, "\x1b\u202e\r") {
			t.Errorf("%s output holds a raw control or bidi character:\n%q", name, out)
		}
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 9 {
			t.Errorf("a table row of the wrong width: %q", line)
		}
	}
	if len(rawHTML([]byte("x <img src=a> y"))) == 0 || len(rawHTML([]byte("`` x`<img src=a>` ``"))) != 0 {
		t.Fatal("rawHTML does not tell HTML from a code span")
	}
	for _, h := range rawHTML(md.Bytes()) {
		t.Errorf("raw HTML in Markdown: %q", h)
	}
	for _, want := range []string{"RAISED: the second session agrees", "Cochran's Q", "inverse-variance weighting", "Regression confirmed by the second session"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

// rawHTML is the raw HTML a CommonMark (GFM) parser finds in src: inline
// HTML and HTML blocks, which a renderer would pass through.
func rawHTML(src []byte) []string {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	var found []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch h := n.(type) {
		case *ast.RawHTML:
			for i := 0; i < h.Segments.Len(); i++ {
				seg := h.Segments.At(i)
				found = append(found, string(seg.Value(src)))
			}
		case *ast.HTMLBlock:
			for i := 0; i < h.Lines().Len(); i++ {
				seg := h.Lines().At(i)
				found = append(found, string(seg.Value(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return found
}

package scenarios

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
)

var (
	featureRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	slugRE    = regexp.MustCompile(`^[a-z0-9]+$`)
	armRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
)

// validate checks everything the YAML types cannot: names, references
// between sections, value ranges, expressions, and that the counters can
// tell the arms apart.
func (s *Scenario) validate(p *problems) {
	if s.Feature == "" {
		p.at("feature", "required: a name of lowercase letters, digits and dashes; it becomes part of the record's file name")
	} else if !featureRE.MatchString(s.Feature) {
		p.at("feature", "%q must match [a-z0-9-]+ (it becomes part of the record's file name; no path separators)", s.Feature)
	}
	s.validateText(p)
	s.validatePrefixCache(p)
	s.validateRequests(p)
	if s.Hardware != "" && s.Hardware != "auto" && !slugRE.MatchString(s.Hardware) {
		p.at("hardware", "%q must be auto or a slug of lowercase letters and digits (e.g. m3ultra, gb10)", s.Hardware)
	}

	e := s.Engine
	_, known := presets[e.Preset]
	if e.Preset != "" && !known {
		p.at("engine.preset", "unknown preset %q (known: %s)", e.Preset, strings.Join(PresetNames(), ", "))
	}
	// With an unknown preset, the fields it would have filled are reported
	// once, as the preset's error.
	presetOK := e.Preset == "" || known
	switch e.Kind {
	case "", KindServer, KindCommand:
	default:
		p.at("engine.kind", "%q is not one of server, command", e.Kind)
	}
	if len(e.Command) == 0 || e.Command[0] == "" {
		p.at("engine.command", "required: the engine's command line as a list, e.g. [llama-server, -m, model.gguf, --port, ${PORT}]")
	} else if e.IsCommand() {
		s.validateCommandEngine(p)
	} else if !s.mentionsPort() {
		p.warn("engine.command", "no ${PORT} in the command or any arm's args: the engine will not listen on the port decodebench polls")
	}
	if len(e.VersionCommand) > 0 && e.VersionCommand[0] == "" {
		p.at("engine.version_command", "the command's first word is empty")
	}
	if presetOK && !e.IsCommand() && !strings.HasPrefix(e.Ready.Path, "/") {
		p.at("engine.ready.path", "required: an HTTP path such as /health (or set engine.preset)")
	} else if why := badHTTPPath(e.Ready.Path); presetOK && !e.IsCommand() && why != "" {
		p.at("engine.ready.path", "%q %s", e.Ready.Path, why)
	}
	if e.Ready.Timeout.Duration < 0 {
		p.at("engine.ready.timeout", "must not be negative")
	}
	if !strings.HasPrefix(e.MetricsPath, "/") {
		p.at("engine.metrics_path", "%q must be an HTTP path starting with /", e.MetricsPath)
	} else if why := badHTTPPath(e.MetricsPath); why != "" {
		p.at("engine.metrics_path", "%q %s", e.MetricsPath, why)
	}
	r := e.Request
	if presetOK && !e.IsCommand() && !endpoints[r.Endpoint] {
		p.at("engine.request.endpoint", "%q is not one of /completion, /v1/completions, /v1/chat/completions", r.Endpoint)
	}
	switch {
	case e.IsCommand():
		// The command line carries the prompt and the token count.
	case r.Prompt == "" && r.PromptFile == "":
		p.at("engine.request", "one of prompt or prompt_file is required")
	case r.Prompt != "" && r.PromptFile != "":
		p.at("engine.request.prompt_file", "give prompt or prompt_file, not both")
	}
	if r.MaxTokens <= 0 && !e.IsCommand() {
		p.at("engine.request.max_tokens", "must be at least 1 (got %d)", r.MaxTokens)
	}
	if r.EventTimes && e.IsCommand() {
		p.at("engine.request.event_times", "a command engine's output is read when it exits: there are no token arrival times")
	}
	if !(r.Temperature >= 0) || math.IsInf(r.Temperature, 0) {
		p.at("engine.request.temperature", "must be a finite number, not negative (got %g)", r.Temperature)
	}
	if r.Timeout.Duration < 0 {
		p.at("engine.request.timeout", "must not be negative")
	}

	arms := map[string]bool{}
	if len(s.Arms) < 2 {
		p.at("arms", "at least two arms are required (a baseline and what it is compared with)")
	}
	for i, a := range s.Arms {
		key := fmt.Sprintf("arms[%d].name", i)
		switch {
		case a.Name == "":
			p.at(key, "required")
		case !armRE.MatchString(a.Name):
			p.at(key, "%q: arm names are letters, digits, '.', '_' and '-'", a.Name)
		case arms[a.Name]:
			p.at(key, "duplicate arm name %q", a.Name)
		}
		arms[a.Name] = true
	}
	if s.Baseline == "" {
		p.at("baseline", "required: the arm every other arm is compared with")
	} else if !arms[s.Baseline] {
		p.at("baseline", "%q is not an arm (arms: %s)", s.Baseline, strings.Join(s.ArmNames(), ", "))
	}

	sc := s.Schedule
	_, budgetGiven := s.pos["schedule.rounds.max_time"]
	_, maxGiven := s.pos["schedule.rounds.max"]
	switch r := sc.Rounds; {
	case r.MaxTime.Duration < 0:
		p.at("schedule.rounds.max_time", "must not be negative (got %s)", r.MaxTime)
	case budgetGiven && r.MaxTime.Duration == 0 && !maxGiven && !p.has("schedule.rounds"):
		// 0 is no budget (--set schedule.rounds.max_time=0 drops a
		// scenario's), and then max must end the schedule.
		p.at("schedule.rounds.max_time", "0 is no budget, and without max nothing ends the schedule: give max, or a budget of at least 1m")
	case r.MaxTime.Duration > 0 && r.MaxTime.Duration < time.Minute:
		p.at("schedule.rounds.max_time", "a budget of %s cannot hold a campaign: give at least 1m", r.MaxTime)
	case r.MaxTime.Duration > 0 && r.Every == 0:
		p.at("schedule.rounds.max_time", "a budget in minutes needs sequential looks: give every, the rounds between looks (e.g. 5)")
	case r.Min < 1:
		p.at("schedule.rounds", "must be at least 1 (got %d)", r.Min)
	case r.Max < r.Min:
		p.at("schedule.rounds.max", "max (%d) is below min (%d)", r.Max, r.Min)
	case r.Every < 0:
		p.at("schedule.rounds.every", "must not be negative (got %d)", r.Every)
	case r.UntilCIWidth < 0:
		p.at("schedule.rounds.until_ci_width", "must be a positive width (got %s)", r.UntilCIWidth)
	case r.Every > 0 && !r.Adaptive() && r.MaxTime.Duration > 0 && !maxGiven:
		p.at("schedule.rounds.max_time", "without max, a budget's max is its last look within %d rounds (min + a multiple of every), here min (%d) itself: "+
			"give max above min, or a smaller min or every", BudgetRounds, r.Min)
	case r.Every > 0 && !r.Adaptive():
		p.at("schedule.rounds.every", "has no effect unless max is above min")
	case r.Every > 0 && r.UntilCIWidth > 0:
		p.at("schedule.rounds", "give either every (sequential looks that stop on a decision) or until_ci_width (stop on an interval's width), not both")
	case r.Adaptive() && r.UntilCIWidth <= 0 && r.Every == 0:
		p.at("schedule.rounds", "adaptive rounds need until_ci_width, the ratio-interval width at which to stop (e.g. 2%%), or every, the rounds between sequential looks (e.g. 5)")
	case !r.Adaptive() && r.UntilCIWidth > 0:
		p.at("schedule.rounds.until_ci_width", "has no effect unless max is above min")
	}
	if sc.Warmup < 0 {
		p.at("schedule.warmup", "must not be negative (got %d)", sc.Warmup)
	}
	s.validateCooldown(p)
	s.validateQuiet(p)
	if sc.Cooldown.Duration < 0 {
		p.at("schedule.cooldown", "must not be negative")
	}

	s.validateArmEngines(p)
	s.validateConcurrency(p)
	s.validateCounters(p, arms)
	s.validatePolicy(p, arms)
	s.validateBounds(p)

	s.validateExtraMetrics(p)
	s.validateDecline(p)
	if !contains(s.metricNames(), s.Metrics.Primary) {
		p.at("metrics.primary", "%q is not one of %s", s.Metrics.Primary, strings.Join(s.metricNames(), ", "))
	}
	if len(s.Unmeasured) == 0 {
		p.at("unmeasured", "required: name what this campaign does not measure (a list of sentences), so readers do not assume it")
	}
	for i, u := range s.Unmeasured {
		if strings.TrimSpace(string(u)) == "" {
			p.at(fmt.Sprintf("unmeasured[%d]", i), "empty entry")
		}
	}
}

func (s *Scenario) validateCounters(p *problems, arms map[string]bool) {
	names := map[string]bool{}
	for i, c := range s.Counters {
		key := fmt.Sprintf("counters[%d]", i)
		switch {
		case c.Name == "":
			p.at(key+".name", "required")
		case names[c.Name]:
			p.at(key+".name", "duplicate counter name %q", c.Name)
		}
		names[c.Name] = true
		n := 0
		for _, src := range []string{c.Metric, c.JSON, c.Log, c.Props, c.Version} {
			if src != "" {
				n++
			}
		}
		if n != 1 {
			p.at(key, "give exactly one source: metric, json, log, props or version")
		}
		s.validateTextCounter(p, key, c)
		s.validatePhase(p, key, c)
		switch {
		case c.Metric != "":
			if _, err := ParseMetricSelector(c.Metric); err != nil {
				p.at(key+".metric", "%v", err)
			}
		case c.JSON != "":
			for _, part := range strings.Split(c.JSON, ".") {
				if part == "" {
					p.at(key+".json", "%q: a dotted path such as timings.draft_n, without empty parts", c.JSON)
					break
				}
			}
		case c.Log != "":
			if re, ok := p.pattern(key+".log", c.Log); ok && re.NumSubexp() != 1 {
				p.at(key+".log", "the regular expression needs exactly one capture group for the number (has %d)", re.NumSubexp())
			}
		}
		if len(c.Expect) == 0 {
			p.at(key+".expect", "required: an expectation per arm, e.g. {classic: \"== 0\", draft: \"> 0\"}")
		}
		for arm, ex := range c.Expect {
			k := key + ".expect." + arm
			if !arms[arm] {
				p.at(k, "%q is not an arm (arms: %s)", arm, strings.Join(s.ArmNames(), ", "))
			}
			if _, err := c.ParseExpect(ex); err != nil {
				p.at(k, "%v", err)
			}
		}
	}
	if s.AllowUnverified != "" || !arms[s.Baseline] || p.has("counters") {
		return // a broken counter is reported once, not also as "no proof"
	}
	for _, a := range s.Arms {
		if a.Name == s.Baseline || a.Control {
			continue
		}
		if len(s.Distinguishing(a.Name)) == 0 {
			p.at("counters", "no counter tells arm %q apart from the baseline %q: "+
				"give one counter expectations for both arms that no value meets together (e.g. \"== 0\" and \"> 0\"), "+
				"or set allow_unverified: \"<reason>\" to run without proof", a.Name, s.Baseline)
		}
	}
}

// Distinguishing returns the names of the counters whose expectations for
// arm and for the baseline cannot both hold: a run that meets both proves
// the arms really differed.
func (s *Scenario) Distinguishing(arm string) []string {
	var out []string
	for _, c := range s.Counters {
		ea, okA := c.Expect[arm]
		eb, okB := c.Expect[s.Baseline]
		if !okA || !okB {
			continue
		}
		xa, errA := c.ParseExpect(ea)
		xb, errB := c.ParseExpect(eb)
		if errA == nil && errB == nil && Disjoint(xa, xb) {
			out = append(out, c.Name)
		}
	}
	return out
}

func (s *Scenario) mentionsPort() bool {
	ref := "${" + PortVar + "}"
	for _, a := range s.Engine.Command {
		if strings.Contains(a, ref) {
			return true
		}
	}
	for _, arm := range s.Arms {
		if arm.Engine != nil {
			for _, a := range arm.Engine.Command {
				if strings.Contains(a, ref) {
					return true
				}
			}
		}
		for _, a := range arm.Args {
			if strings.Contains(a, ref) {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validatePolicy checks the statistics, gates, controls and exactness
// settings.
func (s *Scenario) validatePolicy(p *problems, arms map[string]bool) {
	unit := func(key string, f Fraction, lo, hi float64, what string) {
		if !(float64(f) > lo && float64(f) < hi) {
			p.at(key, "%s must be between %s and %s (got %s)", what, Fraction(lo), Fraction(hi), f)
		}
	}
	unit("stats.confidence", s.Stats.Confidence, 0.5, 1, "confidence")
	unit("stats.alpha", s.Stats.Alpha, 0, 0.5, "alpha")
	for key, f := range map[string]Fraction{"stats.min_effect": s.Stats.MinEffect, "gates.max_spread": s.Gates.MaxSpread,
		"gates.max_contended": s.Gates.MaxContended, "gates.contended_cpu": s.Gates.ContendedCPU, "gates.max_drift": s.Gates.MaxDrift} {
		switch {
		case !(f >= 0):
			p.at(key, "must not be negative (0 disables it)")
		case f > 1 && (key == "gates.max_contended" || key == "gates.contended_cpu"):
			// A share of the runs, of the CPU: past 100% the gate can
			// never close, and a bare 20 (meant as 20%) reads 2000%.
			p.at(key, "must be at most 100%% (got %s): a bare number is a fraction (0.04); write 4%% for four percent, or 0 to disable the gate", f)
		case f >= 1 && float64(f) == math.Trunc(float64(f)) && (key == "gates.max_spread" || key == "gates.max_drift"):
			// A spread or a change can pass 100% (a heavy-tailed metric,
			// one that triples), but a bare 4 meant as 4% reads 400%:
			// a whole number is warned of (150% is not).
			p.warn(key, "is %s: a bare number is a fraction (0.04), so %g is %s; write %g%% for that many percent", f, float64(f), f, float64(f))
		}
	}
	if f := s.Stats.MinEffect; f >= 1 {
		p.at("stats.min_effect", "must be below 100%% (got %s): a change of 100%% or more down cannot happen, so no decrease could count", f)
	}
	controls := 0
	for i, a := range s.Arms {
		if !a.Control {
			continue
		}
		if a.Name != s.Baseline {
			controls++
		}
		if a.Name == s.Baseline {
			p.at(fmt.Sprintf("arms[%d].control", i), "the baseline cannot be its own negative control: add a separate arm with the baseline's settings")
		}
	}
	if s.Stats.PoolControl && controls == 0 {
		p.at("stats.pool_control", "there is no negative control to pool: add an arm with the baseline's settings and control: true, or drop pool_control")
	}
	if controls > 0 && controls == len(s.Arms)-1 {
		p.at("arms", "every arm besides the baseline is a control: nothing is measured as a change")
	}
	x := s.Exactness
	if x == nil {
		return
	}
	if !arms[x.Against] {
		p.at("exactness.against", "%q is not an arm", x.Against)
	}
	if len(x.Compare) == 0 {
		p.at("exactness.compare", "name the arms whose output must equal the %q arm's", x.Against)
	}
	for i, a := range x.Compare {
		key := fmt.Sprintf("exactness.compare[%d]", i)
		switch {
		case !arms[a]:
			p.at(key, "%q is not an arm", a)
		case a == x.Against:
			p.at(key, "%q is compared against itself; the baseline's self-agreement is always checked", a)
		}
	}
	for i, re := range x.Strip {
		p.pattern(fmt.Sprintf("exactness.strip[%d]", i), re)
	}
	if !(x.NearTie >= 0 && x.NearTie <= 5) {
		p.at("exactness.near_tie", "%g nats is outside [0, 5]: the near-tie threshold is a difference of log-probabilities", x.NearTie)
	}
	if s.Engine.Request.Temperature > 0 {
		p.warn("exactness", "temperature is %g: sampled output is not expected to be identical, so the identity check will likely be inconclusive", s.Engine.Request.Temperature)
	}
}

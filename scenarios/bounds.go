package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Upper bounds on what a scenario may ask for. They are far above any
// sensible campaign and exist so that a typo or a hostile file (rounds:
// 2000000000) is refused by validate, not found out a year into a run or
// by an allocation that fails.
const (
	MaxRounds      = 1000
	MaxWarmup      = 100
	MaxCooldown    = time.Hour
	MaxTimeout     = 24 * time.Hour
	MaxMaxTokens   = 1_000_000
	MaxArms        = 64
	MaxCampaign    = 7 * 24 * time.Hour // of Estimate
	MaxRecordStem  = 200                // bytes of <feature>-<hw>-<date>[-N]
	MaxRetries     = 10                 // the N of on_failure: retry:N
	autoHardwareSz = 32                 // room kept for hardware: auto's slug
)

// validateBounds refuses values beyond the upper bounds above, record names
// too long for a file system, and campaigns estimated to take more than
// MaxCampaign. It runs after the range checks of validate, so it only
// looks at values that are not negative.
func (s *Scenario) validateBounds(p *problems) {
	before := len(p.errs)
	r := s.Schedule.Rounds
	if r.Min > MaxRounds {
		p.at("schedule.rounds", "%d rounds is more than the limit of %d", r.Min, MaxRounds)
	} else if r.Max > MaxRounds {
		p.at("schedule.rounds.max", "%d rounds is more than the limit of %d", r.Max, MaxRounds)
	}
	if s.Schedule.Warmup > MaxWarmup {
		p.at("schedule.warmup", "%d warmup requests is more than the limit of %d", s.Schedule.Warmup, MaxWarmup)
	}
	if d := s.Schedule.Cooldown.Longest(); d > MaxCooldown {
		p.at("schedule.cooldown", "%v is longer than the limit of %v", d, MaxCooldown)
	}
	for key, d := range map[string]time.Duration{
		"engine.ready.timeout":   s.Engine.Ready.Timeout.Duration,
		"engine.request.timeout": s.Engine.Request.Timeout.Duration,
		"engine.stop_grace":      s.Engine.StopGrace.Duration,
	} {
		if d > MaxTimeout {
			p.at(key, "%v is longer than the limit of %v", d, MaxTimeout)
		}
	}
	if n := s.Engine.Request.MaxTokens; n > MaxMaxTokens {
		p.at("engine.request.max_tokens", "%d is more than the limit of %d", n, MaxMaxTokens)
	}
	if n := len(s.Arms); n > MaxArms {
		p.at("arms", "%d arms is more than the limit of %d", n, MaxArms)
	}
	s.validateStem(p)
	if len(p.errs) > before {
		return // the estimate would only repeat what is already said
	}
	if est := s.Longest(); est > MaxCampaign {
		p.at("schedule.rounds", "the campaign is estimated to take %s (%s), more than the limit of %s: %s",
			Round(est), s.longestWhy(est), Round(MaxCampaign), s.longestFix(est))
	}
}

// longestWhy says what makes the campaign as long as est (Longest): its
// rounds, its first look (which a budget cannot shorten) or its budget.
func (s *Scenario) longestWhy(est time.Duration) string {
	r := s.Schedule.Rounds
	looks := r.Looks()
	switch {
	case r.MaxTime.Duration > 0 && len(looks) > 0 && est == r.MaxTime.Duration:
		return fmt.Sprintf("its budget, max_time %s, at up to %d rounds × %d arms × (cooldown + a run)", r.MaxTime, max(r.Max, r.Min), len(s.Arms))
	case r.MaxTime.Duration > 0 && len(looks) > 0 && looks[0] < max(r.Max, r.Min):
		return fmt.Sprintf("%d rounds to its first look × %d arms × (cooldown + a run); max_time stops a campaign only at a look", looks[0], len(s.Arms))
	}
	return fmt.Sprintf("%d rounds × %d arms × (cooldown + a run)", max(r.Max, r.Min), len(s.Arms))
}

// longestFix is what would bring the campaign within MaxCampaign.
func (s *Scenario) longestFix(est time.Duration) string {
	r := s.Schedule.Rounds
	if r.MaxTime.Duration > 0 && len(r.Looks()) > 0 && est == r.MaxTime.Duration {
		return "give a shorter max_time"
	}
	return "use fewer rounds, arms or a shorter cooldown"
}

// validateStem refuses a feature or hardware slug that would make the
// record's file name, <feature>-<hw>-<YYYY-MM-DD>[-N].md, or its data
// folder of the same stem, longer than MaxRecordStem bytes (most file
// systems allow 255).
func (s *Scenario) validateStem(p *problems) {
	hw, hwKey := len(s.Hardware), "hardware"
	if s.Hardware == "" || s.Hardware == "auto" {
		hw, hwKey = autoHardwareSz, "feature"
	}
	const rest = len("--2006-01-02-999")
	if len(s.Feature)+hw+rest <= MaxRecordStem {
		return
	}
	key := "feature"
	if hwKey == "hardware" && hw > len(s.Feature) {
		key = "hardware"
	}
	p.at(key, "too long: the record's file name <feature>-<hardware>-<date>[-N] would be %d bytes, more than the limit of %d; shorten the %s slug",
		len(s.Feature)+hw+rest, MaxRecordStem, key)
}

// Round rounds a duration for display: seconds below an hour, minutes
// above.
func Round(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.1f days", d.Hours()/24)
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	}
	return d.Round(time.Second).String()
}

// validateRetries refuses on_failure: retry:N beyond MaxRetries. A retry
// is for a failure that does not come back (a lost log tail, a port taken
// between choice and bind): a slot that failed ten times in a row has a
// cause an eleventh try does not remove, and a retry without end runs
// until a failing configuration happens to pass (an engine that engages
// its feature on some runs only, the others failed for their lost count).
// A number too large to read would have retried nothing. New campaigns
// only: a stored scenario is re-read as it ran.
func (s *Scenario) validateRetries(p *problems) {
	f := string(s.OnFailure)
	n, err := strconv.Atoi(strings.TrimPrefix(f, "retry:"))
	if strings.HasPrefix(f, "retry:") && (err != nil || n > MaxRetries) {
		p.at("on_failure", "%q retries a slot too often: retry:N takes N from 1 to %d", f, MaxRetries)
	}
}

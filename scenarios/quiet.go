package scenarios

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/decodebench/decodebench/schema"
	"gopkg.in/yaml.v3"
)

// Quiet is gates.quiet: before every run, wait until the host has been
// quiet for a continuous window (no process outside the campaign above
// max_cpu of one core, none named on the deny list, on AC power, low-power
// mode off, thermal state nominal where readable), at most max_wait; then
// on_busy decides.
//
// The gate is off unless the scenario has a gates.quiet key: `quiet: {}`
// turns it on with the defaults. It is off by default because a shared or
// CI machine is rarely quiet for 30 s, and a default that holds every run
// for up to 10 minutes there would turn a two-minute campaign into hours;
// the contention gate still judges every measured window. Dedicated
// runners turn it on in their scenarios; the shipped ones (the demo's
// among them) turn it on with a short window and max_wait, and once a
// wait ran out, later runs look once while the host stays busy
// (harness), so a busy host costs one max_wait.
type Quiet struct {
	Window   Duration `yaml:"window" json:"window,omitempty"`
	Interval Duration `yaml:"interval" json:"interval,omitempty"`
	// MaxCPU is the most CPU any one other process may use, as a share of
	// one core ("15%").
	MaxCPU Fraction `yaml:"max_cpu" json:"max_cpu,omitempty"`
	// Deny names processes that must not run, in addition to the default
	// list (compilers, build tools, CI workers, macOS indexers, backup).
	Deny    []string `yaml:"deny" json:"deny,omitempty"`
	MaxWait Duration `yaml:"max_wait" json:"max_wait,omitempty"`
	// OnBusy is what happens when max_wait passes: "wait" (run anyway,
	// the wait recorded), "mark" (run, and the run counts as contended),
	// or "abort" (stop the campaign; finished runs are kept).
	OnBusy schema.BusyAction `yaml:"on_busy" json:"on_busy,omitempty"`
}

// Defaults of gates.quiet.
const (
	DefaultQuietWindow   = 30 * time.Second
	DefaultQuietInterval = 2 * time.Second
	DefaultQuietMaxCPU   = 0.15
	DefaultQuietMaxWait  = 10 * time.Minute
	// MinQuietInterval bounds gates.quiet.interval below: /proc/stat
	// counts CPU time in 10 ms ticks, so a shorter sample is mostly
	// rounding, and a 1ns interval spins the gate on the CPU it judges.
	MinQuietInterval = 50 * time.Millisecond
)

// QuietPolicy is gates.quiet, typed, with its defaults applied.
type QuietPolicy struct {
	Window, Interval, MaxWait time.Duration
	// MaxCPU is a share of one core.
	MaxCPU float64
	// Deny are the scenario's names, added to the machine's default list.
	Deny   []string
	OnBusy schema.BusyAction
}

func (q *Quiet) policy() *QuietPolicy {
	if q == nil {
		return nil
	}
	p := &QuietPolicy{Window: q.Window.Duration, Interval: q.Interval.Duration, MaxWait: q.MaxWait.Duration,
		MaxCPU: float64(q.MaxCPU), Deny: q.Deny, OnBusy: q.OnBusy}
	if p.Window == 0 {
		p.Window = DefaultQuietWindow
	}
	if p.Interval == 0 {
		p.Interval = DefaultQuietInterval
	}
	if p.MaxWait == 0 {
		p.MaxWait = DefaultQuietMaxWait
	}
	if p.MaxCPU == 0 {
		p.MaxCPU = DefaultQuietMaxCPU
	}
	if p.OnBusy == "" {
		p.OnBusy = schema.BusyWait
	}
	return p
}

func (s *Scenario) validateQuiet(p *problems) {
	q := s.Gates.Quiet
	if q == nil {
		return
	}
	for key, d := range map[string]Duration{"gates.quiet.window": q.Window, "gates.quiet.interval": q.Interval, "gates.quiet.max_wait": q.MaxWait} {
		if d.Duration < 0 {
			p.at(key, "must not be negative")
		}
		if d.Duration > MaxTimeout {
			p.at(key, "%v is longer than the limit of %v", d.Duration, MaxTimeout)
		}
	}
	if d := q.Interval.Duration; d > 0 && d < MinQuietInterval {
		p.at("gates.quiet.interval", "%v is shorter than the minimum of %v: a sample that short is mostly the rounding of the kernel's CPU ticks, and the sampler spins", d, MinQuietInterval)
	}
	if q.Interval.Duration > 0 && q.Window.Duration > 0 && q.Interval.Duration > q.Window.Duration {
		p.at("gates.quiet.interval", "%v is longer than the window of %v: the window would be judged on one sample", q.Interval.Duration, q.Window.Duration)
	}
	if q.MaxCPU < 0 {
		p.at("gates.quiet.max_cpu", "must not be negative")
	}
	for i, d := range q.Deny {
		if d == "" {
			p.at(fmt.Sprintf("gates.quiet.deny[%d]", i), "empty process name")
		}
	}
}

// Cooldown is schedule.cooldown: a fixed pause between runs ("2s"), or an
// adaptive one (`{until_quiet: {min: 5s, max: 120s}}`) that ends once the
// machine's CPU load is back near the level measured before the campaign
// and, where readable, its thermal state is nominal: never shorter than
// min, never longer than max.
type Cooldown struct {
	// Duration is the fixed pause; 0 with UntilQuiet set.
	Duration   time.Duration  `yaml:"-" json:"-"`
	UntilQuiet *CooldownRange `yaml:"until_quiet" json:"until_quiet,omitempty"`
}

// CooldownRange bounds an adaptive cooldown.
type CooldownRange struct {
	Min Duration `yaml:"min" json:"min"`
	Max Duration `yaml:"max" json:"max"`
}

// Default bounds of an adaptive cooldown.
const (
	DefaultCooldownMin = 5 * time.Second
	DefaultCooldownMax = 120 * time.Second
)

// Longest is the longest the cooldown may last.
func (c Cooldown) Longest() time.Duration {
	if c.UntilQuiet != nil {
		return c.UntilQuiet.Max.Duration
	}
	return c.Duration
}

// String is "2s" for a fixed cooldown, "until quiet (5s–2m0s)" else.
func (c Cooldown) String() string {
	if r := c.UntilQuiet; r != nil {
		return fmt.Sprintf("until quiet (%v–%v)", r.Min.Duration, r.Max.Duration)
	}
	return c.Duration.String()
}

// MarshalJSON writes a fixed cooldown as its duration string, exactly as
// before adaptive cooldowns existed (the semantic hash of older scenarios
// stays), and an adaptive one as an object.
func (c Cooldown) MarshalJSON() ([]byte, error) {
	if c.UntilQuiet == nil {
		return json.Marshal(c.Duration.String())
	}
	return json.Marshal(struct {
		UntilQuiet *CooldownRange `json:"until_quiet"`
	}{c.UntilQuiet})
}

func (c *Cooldown) checkNode(n *yaml.Node) string {
	const want = "expected a duration (e.g. 2s) or {until_quiet: {min, max}}"
	switch n.Kind {
	case yaml.ScalarNode:
		var d Duration
		if err := d.UnmarshalText([]byte(n.Value)); err != nil {
			return fmt.Sprintf("invalid duration (e.g. 2s, 500ms) %q: %v", n.Value, trimErr(err))
		}
		return ""
	case yaml.MappingNode:
		if len(n.Content) != 2 || n.Content[0].Value != "until_quiet" {
			if len(n.Content) >= 2 {
				return fmt.Sprintf("unknown key %q (known: until_quiet)", n.Content[0].Value)
			}
			return want
		}
		v := n.Content[1]
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return ""
		}
		if v.Kind != yaml.MappingNode {
			return "until_quiet: expected {min, max}, got " + kindName(v)
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, x := v.Content[i], v.Content[i+1]
			if k.Value != "min" && k.Value != "max" {
				return fmt.Sprintf("until_quiet: unknown key %q (known: min, max)", k.Value)
			}
			var d Duration
			if x.Kind != yaml.ScalarNode {
				return fmt.Sprintf("until_quiet.%s: expected a duration, got %s", k.Value, kindName(x))
			}
			if err := d.UnmarshalText([]byte(x.Value)); err != nil {
				return fmt.Sprintf("until_quiet.%s: invalid duration %q: %v", k.Value, x.Value, trimErr(err))
			}
		}
		return ""
	}
	return want + ", got " + kindName(n)
}

// UnmarshalYAML reads either form; an adaptive cooldown's missing bounds
// take DefaultCooldownMin and DefaultCooldownMax.
func (c *Cooldown) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var d Duration
		if err := d.UnmarshalText([]byte(n.Value)); err != nil {
			return err
		}
		*c = Cooldown{Duration: d.Duration}
		return nil
	}
	var raw struct {
		UntilQuiet *struct {
			Min *Duration `yaml:"min"`
			Max *Duration `yaml:"max"`
		} `yaml:"until_quiet"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	r := &CooldownRange{Min: Duration{DefaultCooldownMin}, Max: Duration{DefaultCooldownMax}}
	if u := raw.UntilQuiet; u != nil {
		if u.Min != nil {
			r.Min = *u.Min
		}
		if u.Max != nil {
			r.Max = *u.Max
		}
	}
	*c = Cooldown{UntilQuiet: r}
	return nil
}

func (s *Scenario) validateCooldown(p *problems) {
	r := s.Schedule.Cooldown.UntilQuiet
	if r == nil {
		return
	}
	switch {
	case r.Min.Duration < 0:
		p.at("schedule.cooldown", "until_quiet.min must not be negative")
	case r.Max.Duration <= 0:
		p.at("schedule.cooldown", "until_quiet.max must be positive")
	case r.Min.Duration > r.Max.Duration:
		p.at("schedule.cooldown", "until_quiet.min %v is longer than max %v", r.Min.Duration, r.Max.Duration)
	}
}

// CooldownPolicy is the adaptive cooldown's bounds.
type CooldownPolicy struct{ Min, Max time.Duration }

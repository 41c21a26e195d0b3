package recorder

import (
	"fmt"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

func (m *mdWriter) method(r *schema.Record) {
	me := r.Method
	m.h2("Method")
	command := me.EngineKind == "command" && r.Schema != schema.SchemaV2
	if command {
		m.p("- %s, order %s (seed %d); %d discarded warmup run(s) of the command before each measured run; cooldown %s between runs.\n",
			m.roundsLine(r), code(string(me.Order)), me.Seed, me.Warmup, text(me.Cooldown))
		m.p("- A command-line engine: every run starts the command afresh in its own process group; it loads the model, generates and exits, ")
		m.p("and the measured run is its whole life, model load included. There is no server, ready path or streamed request: ")
		m.p("`wall_s` is the command's wall time, the other metrics, the token count and the counters are read from the lines it printed.\n")
	} else {
		m.p("- %s, order %s (seed %d); %d discarded warmup request(s) after each engine start; cooldown %s between runs.\n",
			m.roundsLine(r), code(string(me.Order)), me.Seed, me.Warmup, text(me.Cooldown))
		if me.Requests > 1 {
			m.p("- Every run starts the engine afresh, waits for its ready path, sends the warmups and then the %d measured requests (streamed), then stops the engine's process group.\n", me.Requests)
			m.p("- %s\n", requestsMethod(me))
		} else {
			m.p("- Every run starts the engine afresh, waits for its ready path, sends the warmups and then the one measured request (streamed), then stops the engine's process group.\n")
		}
	}
	if len(me.PrefixCache) > 0 {
		m.p("- %s\n", prefixCacheMethod(r))
	}
	m.p("- Order planned: %s.\n", orderString(me.Planned))
	ran, cool := runOrder(r.Runs)
	m.p("- Order run: %s.\n", orderString(ran))
	if m.st.asRun() {
		m.cooldowns(r.Runs)
	} else if len(cool) > 0 {
		s := stats.Summarize(cool)
		m.p("- Cooldowns slept: %d, from %ss to %ss (median %ss).\n", len(cool), num(s.Min, 3), num(s.Max, 3), num(s.Median, 3))
	}
	m.p("- Started %s, finished %s (%s).\n", me.Started.UTC().Format(time.RFC3339), me.Finished.UTC().Format(time.RFC3339), me.Finished.Sub(me.Started).Round(time.Second))
	for _, t := range me.Resumed {
		m.p("- Resumed at %s.\n", t.UTC().Format(time.RFC3339))
	}
	if me.StoppedBy != "" {
		m.p("- Rounds run: %d; the schedule stopped on: %s.\n", me.RoundsRun, text(me.StoppedBy))
	}
	m.p("- %s\n", methodStatistics(me, m.st.rule))
	window := "the measured request"
	if command {
		window = "the measured run, the command's process group being the engine's"
	}
	m.p("- Gates: spread (interquartile range over median) at most %s per arm; at most %s of runs contended (other processes above %s of the CPU during %s); drift flagged above %s. Outliers (%s) are %s.\n",
		pct.Exact(me.MaxSpread), pct.Exact(me.MaxContended), pct.Exact(me.ContendedCPU), window, pct.Exact(me.MaxDrift), outlierRule(), outlierPolicy(me.Outliers))
	if me.OnFailure != "" {
		m.p("- On a failed run: %s.\n", code(string(me.OnFailure)))
	}
	if len(r.Analysis.Clocks) > 0 {
		m.clocks(r)
	} else if x := r.Analysis.ClientEngineRatio; x > 0 {
		m.p("- Check: the client-side decode rate is %s× the engine's own `predicted_per_second` (median over runs).\n", num(x, 4))
	}
	if me.Indexing != "" {
		m.p("- Spotlight indexing and Time Machine (host.pause\\_indexing): %s.\n", text(me.Indexing))
	}
	if line := energyMethod(r.Runs); line != "" {
		m.p("- %s\n", line)
	}
	if command {
		m.p("- Decode rate (`decode_tok_s`), where the scenario reads it, is the command's own figure, as it printed it; the token count: %s.\n", tokenSources(r.Runs))
	} else {
		m.p("- Decode rate (`decode_tok_s`) is measured by the client: tokens after the first streamed token event divided by the time from that event to the last one; the token count is the engine's own (%s).\n", tokenSources(r.Runs))
	}
	dirty := ""
	if me.Dirty {
		dirty = " (dirty tree)"
	}
	m.hostMethod(me)
	m.hostHistory(r)
	m.p("- decodebench %s, commit %s%s.\n\n", text(me.Version), code(me.Commit), dirty)
}

// roundsLine is the method's rounds × arms: under the rules before
// robust-12 the schedule's minimum, whatever ran; from robust-12 on the
// rounds that hold a run (the last in part where not every arm ran in
// it), with the schedule's minimum and the rounds planned when it stopped
// where they differ.
func (m *mdWriter) roundsLine(r *schema.Record) string {
	me, arms := r.Method, len(r.Scenario.Arms)
	if !m.st.asRun() {
		return fmt.Sprintf("%d rounds × %d arms", me.Rounds, arms)
	}
	ran, in := 0, map[string]bool{}
	for _, run := range r.Runs {
		if run.Round > ran {
			ran, in = run.Round, map[string]bool{}
		}
		if run.Round == ran {
			in[run.Arm] = true
		}
	}
	partial := ran > 0 && len(in) < arms
	if ran == me.Rounds && !partial {
		return fmt.Sprintf("%d rounds × %d arms", me.Rounds, arms)
	}
	line := fmt.Sprintf("%d rounds × %d arms run", ran, arms)
	if partial {
		line += ", the last in part"
	}
	var notes []string
	if ran != me.Rounds {
		notes = append(notes, fmt.Sprintf("the schedule's minimum: %d rounds", me.Rounds))
	}
	if me.RoundsRun > 0 && me.RoundsRun != ran {
		notes = append(notes, fmt.Sprintf("%d planned when it stopped", me.RoundsRun))
	}
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	return line
}

// cooldowns states, from robust-12 on, the cooldowns slept (each run's
// cooldown phase, where its phases were timed) and, beside them, the time
// from a run's end to the next's start, which also holds the quiet gate's
// hold and decodebench's own work between runs. A run that follows no
// run's end in its decodebench process (the campaign's first, the first
// after a resume: its time since is 0) counts in neither.
func (m *mdWriter) cooldowns(runs []schema.Run) {
	var slept, between []float64
	timed := true
	for _, run := range runs {
		if run.CooldownS <= 0 {
			continue
		}
		between = append(between, run.CooldownS)
		if run.Phases == nil {
			timed = false
		} else if run.Phases.CooldownS > 0 {
			slept = append(slept, run.Phases.CooldownS)
		}
	}
	if len(between) == 0 {
		return
	}
	b := stats.Summarize(between)
	gaps := fmt.Sprintf("from a run's end to the next's start (cooldown, quiet gate and decodebench's own work): %ss to %ss (median %ss)", num(b.Min, 3), num(b.Max, 3), num(b.Median, 3))
	switch {
	case !timed:
		m.p("- Cooldowns were not timed apart; %s.\n", gaps)
	case len(slept) == 0:
		m.p("- Cooldowns slept: none; %s.\n", gaps)
	default:
		s := stats.Summarize(slept)
		m.p("- Cooldowns slept: %d, from %ss to %ss (median %ss); %s.\n", len(slept), num(s.Min, 3), num(s.Max, 3), num(s.Median, 3), gaps)
	}
}

// runOrder is the arms in the order they ran and the time from the
// previous run's end to each run's start, every run but the first.
func runOrder(runs []schema.Run) (arms []string, cooldowns []float64) {
	for _, run := range runs {
		arms = append(arms, run.Arm)
		if run.Seq > 1 {
			cooldowns = append(cooldowns, run.CooldownS)
		}
	}
	return arms, cooldowns
}

func tokenSources(runs []schema.Run) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range runs {
		if r.TokenSource != "" && !seen[r.TokenSource] {
			seen[r.TokenSource] = true
			out = append(out, r.TokenSource)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return backquoted(out, ", ")
}

// orderString lists arms in the order they ran.
func orderString(order []string) string {
	if len(order) == 0 {
		return "none"
	}
	return backquoted(order, " ")
}

func outlierPolicy(p schema.OutlierMode) string {
	if p == schema.OutliersDrop {
		return "dropped from the statistics (outliers: drop)"
	}
	return "flagged, never dropped"
}

// hostMethod are the method section's quiet-gate and footprint lines.
func (m *mdWriter) hostMethod(me schema.Method) {
	if me.Quiet != "" {
		m.p("- Quiet gate before every run: %s.\n", text(me.Quiet))
	}
	if f := me.Footprint; f != nil && f.WindowS > 0 {
		sampler := ""
		if f.SamplerS > 0 {
			sampler = fmt.Sprintf(" (%ss of it nvidia-smi's, sampling the GPUs)", num(f.SamplerS, 3))
		}
		m.p("- decodebench's own CPU during the measured windows (rusage, telemetry sampling included): %ss%s over %ss of windows, %s of one core.%s\n",
			num(f.CPUS, 3), sampler, num(f.WindowS, 4), pct.Fixed(f.Share(), 2), readsSentence(f))
	}
}

// readsSentence says how the measured streams were read, where the record
// says.
func readsSentence(f *schema.Footprint) string {
	var s string
	switch f.Reads {
	case "ends":
		s = " decodebench read each stream at its ends only (the first token event and the end of the stream), so per-token arrival times were not taken."
	case "every event":
		s = " Every token event was timestamped as it arrived (engine.request.event_times), which wakes decodebench once per event."
	case "mixed":
		s = " Some streams were read at their ends only, others event by event."
	}
	if f.Note != "" {
		s += " " + text(f.Note) + "."
	}
	return s
}

// energyMethod says where the runs' energy came from: each source, what
// it covers, and for a sampled source its interval and sample counts; ""
// when no run measured energy (every record from before it did).
func energyMethod(runs []schema.Run) string {
	type src struct {
		coverage                 string
		interval                 float64
		n, fewest, most, minimum int
	}
	var order []string
	by := map[string]*src{}
	for _, r := range runs {
		e := r.Energy
		if e == nil || e.Source == "" {
			continue
		}
		s, ok := by[e.Source]
		if !ok {
			s = &src{coverage: strings.Join(e.Coverage, ", "), interval: e.IntervalS, fewest: e.Samples, most: e.Samples, minimum: e.MinSamples}
			by[e.Source] = s
			order = append(order, e.Source)
		}
		s.n++
		s.fewest, s.most = min(s.fewest, e.Samples), max(s.most, e.Samples)
	}
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for _, name := range order {
		s := by[name]
		p := fmt.Sprintf("%s (covers %s) in %d run(s)", code(name), text(s.coverage), s.n)
		switch {
		case s.most > 0 && name == schema.EnergyPowermetrics:
			// No record before powermetrics was run says otherwise.
			p += fmt.Sprintf(", samples of %ss on average, %d–%d per window (at least %d), each one's power over the time it shares with the window, as the mean power over the whole window", count(s.interval), s.fewest, s.most, s.minimum)
		case s.most > 0:
			p += fmt.Sprintf(", sampled every %ss, %d–%d samples per window (at least %d), integrated over the window (trapezoids, the edge samples held to the window's ends)", count(s.interval), s.fewest, s.most, s.minimum)
		default:
			p += ", counters read before and after the window (wrap-around undone)"
		}
		parts = append(parts, p)
	}
	return "Energy (`energy_j`, and `energy_j_per_tok` over the engine's token count) over each measured request: " + strings.Join(parts, "; ") + "; nothing else of the machine is in the joules."
}

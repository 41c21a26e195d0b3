package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// TokensFromCommand is the TokenSource of a count read from a command
// engine's output.
const TokensFromCommand = "command output"

// commandExecutor runs a command-line engine once per warmup and once for
// the measured run, and reads the run's metrics, counters and generated
// text from what the command printed.
type commandExecutor struct {
	c             *campaign
	metrics       map[string]*regexp.Regexp
	tokens        *regexp.Regexp
	after, before *regexp.Regexp
}

func newCommandExecutor(c *campaign) *commandExecutor {
	o := c.scenario.Engine.Output
	e := &commandExecutor{c: c, metrics: map[string]*regexp.Regexp{}}
	for m, expr := range o.Metrics {
		e.metrics[m] = regexp.MustCompile(expr) // validated when loading
	}
	if o.Tokens != "" {
		e.tokens = regexp.MustCompile(o.Tokens)
	}
	if o.Text.After != "" {
		e.after = regexp.MustCompile(o.Text.After)
	}
	if o.Text.Before != "" {
		e.before = regexp.MustCompile(o.Text.Before)
	}
	return e
}

// Execute implements Executor.
func (e *commandExecutor) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	c, s := e.c, e.c.scenario
	command, env, logPath := c.armLaunch(slot, run)
	cfg := engine.CommandConfig{
		Command:    command,
		Executable: c.engines.executable(slot.Arm),
		Env:        env,
		Timeout:    s.Engine.Request.Timeout.Duration,
		StopGrace:  s.Engine.StopGrace.Duration,
		LogPath:    logPath,
		Redact:     c.redact.Text,
	}
	ph := phasesOf(run)
	warming := time.Now()
	for i := 0; i < s.Schedule.Warmup; i++ {
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("warmup %d/%d", i+1, s.Schedule.Warmup))
		cfg.Label, cfg.Append = fmt.Sprintf("warmup run %d (discarded)", i+1), i > 0
		_, err := engine.RunCommand(ctx, cfg)
		ph.WarmupS = time.Since(warming).Seconds()
		if err != nil {
			return fmt.Errorf("warmup run %d: %w", i+1, err)
		}
	}
	c.progress.Phase(slot.Seq, slot.Arm, "measuring")
	cfg.Label, cfg.Append = "measured run", s.Schedule.Warmup > 0
	// The measured run is the command's whole life: the machine's CPU is
	// watched from its start to its exit, its process group's own time
	// (its rusage) counted as the engine's.
	var meter *machine.ContentionMeter
	cfg.OnStart = func(pid int) { meter, _ = machine.StartContention(ctx, pid) }
	measuring := time.Now()
	res, err := engine.RunCommand(ctx, cfg)
	ph.MeasuredS = time.Since(measuring).Seconds()
	if err != nil {
		return err
	}
	if meter != nil {
		if ct, err := meter.StopExited(context.WithoutCancel(ctx), res.CPU); err == nil {
			run.Contention = ct.Record()
		}
	}
	run.Leftovers = leftovers(res.Leftovers)
	run.EngineOutput = engineOutput(res.Window, res.LogCut)
	run.Metrics = map[string]float64{schema.WallS: res.Wall.Seconds()}
	if err := e.figures(res.Lines, run); err != nil {
		return err
	}
	run.Output = e.text(res.Stdout)
	sum := sha256.Sum256([]byte(run.Output))
	run.OutputSHA256 = hex.EncodeToString(sum[:])
	if err := c.observe(engine.Observation{Window: res.Lines, Reply: lastJSON(res.Stdout)}, run); err != nil {
		return err
	}
	return lostCount(c.policy, run)
}

// figures reads the run's metrics and generated-token count from the
// command's lines, the last match of each pattern counting. A missing
// primary metric, or a missing count where the scenario declares a tokens
// pattern, fails the run: llama.cpp's CLIs now and then exit before their
// log thread has written the last lines, and a run that lost its timing
// line must not be kept on a figure read from another one (llama-
// completion's "prompt eval time" line, printed just before the lost
// "eval time" one, is matched by a loose pattern) nor with its count read
// as 0. The run fails and on_failure: retry runs it again.
func (e *commandExecutor) figures(lines []string, run *schema.Run) error {
	s := e.c.scenario
	for m, re := range e.metrics {
		v, ok := engine.LastNumber(re, lines)
		if !ok {
			if m == s.Metrics.Primary {
				return fmt.Errorf("the command's output has no match for the %s pattern %q", m, re)
			}
			continue
		}
		if !plausible(run, "metric "+m, v, false) {
			if m == s.Metrics.Primary {
				return fmt.Errorf("the command's output gives %s as %s, which cannot be true", m, engine.FormatValue(v))
			}
			continue
		}
		run.Metrics[m] = v
	}
	if e.tokens == nil {
		return nil
	}
	v, ok := engine.LastNumber(e.tokens, lines)
	if !ok {
		return fmt.Errorf("the command's output has no match for the tokens pattern %q: a count the command did not print is not 0", e.tokens)
	}
	if iv, bad := engine.ImpossibleTokens("tokens", v, s.Engine.Request.MaxTokens); bad {
		run.Impossible = append(run.Impossible, iv)
	} else {
		run.Tokens, run.TokenSource = int(v), TokensFromCommand
	}
	return nil
}

// text delimits the generated text in the command's standard output.
func (e *commandExecutor) text(stdout []byte) string {
	return engine.CommandText(string(stdout), e.after, e.before)
}

// lastJSON is the last line of standard output that is a JSON object, for
// json: counters; nil when there is none.
func lastJSON(stdout []byte) map[string]any {
	return engine.LastJSON(strings.Split(string(stdout), "\n"))
}

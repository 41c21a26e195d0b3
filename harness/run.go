package harness

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// serverExecutor runs each slot against the real engine server.
type serverExecutor struct{ c *campaign }

// Execute implements Executor.
func (e serverExecutor) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	return e.c.runOne(ctx, slot, run)
}

// runOne performs one measured run: start the engine with the arm's args and
// env, wait until ready, send the warmups, scrape metrics, send the measured
// request inside the log window, scrape again, stop the engine, and read
// the counters. The engine is stopped on every path out of this function.
func (c *campaign) runOne(ctx context.Context, slot Slot, run *schema.Run) (err error) {
	s := c.scenario
	command, env, logPath := c.armLaunch(slot, run)
	cfg := engine.Config{
		Command:      command,
		Executable:   c.engines.executable(slot.Arm),
		Env:          env,
		ReadyPath:    s.Engine.Ready.Path,
		ReadyTimeout: s.Engine.Ready.Timeout.Duration,
		StopGrace:    s.Engine.StopGrace.Duration,
		LogPath:      logPath,
		Redact:       c.redact.Text,
		PIDFiles:     c.pidFiles(),
		KeepStartup:  c.needStartup,
	}
	ph := phasesOf(run)
	c.progress.Phase(slot.Seq, slot.Arm, "starting engine")
	launched := time.Now()
	srv, err := engine.Start(ctx, cfg)
	if err != nil {
		ph.StartS = time.Since(launched).Seconds()
		return err
	}
	run.ReadyS = time.Since(launched).Seconds()
	ph.StartS = run.ReadyS
	run.Port = srv.Port
	defer func() {
		stopping := time.Now()
		// An interrupt bounds the wait for the engine to seconds, not
		// stop_grace, so that the INCOMPLETE record is written before a
		// second signal ends decodebench without one.
		stopErr := srv.StopInterruptible(ctx, c.opt.Progress)
		ph.StopS = time.Since(stopping).Seconds()
		if stopErr != nil && err == nil {
			err = fmt.Errorf("stop engine: %w", stopErr)
		}
		run.Leftovers = leftovers(srv.Leftovers())
		run.EngineOutput = engineOutput(srv.Log.Window(), srv.Log.Cut())
	}()
	served := 0 // requests this start has served
	warm, err := c.warmups(ctx, slot, srv, run, &served)
	if err != nil {
		return err
	}
	if rewarm, err := c.awaitGate(slot, run); err != nil {
		return err
	} else if rewarm {
		// The host was busy while the engine warmed up beside the quiet
		// gate: warm it up again after the quiet it waited for. The
		// warmups sent again stand in the run's requests for the first
		// ones (whose time stays in the warmup phase, and which the
		// engine log keeps), so that every start keeps one layout.
		srv.Log.Mark("warmups sent again: the host was busy while the engine warmed up beside the quiet gate")
		run.Requests = run.Requests[:0]
		if warm, err = c.warmups(ctx, slot, srv, run, &served); err != nil {
			return err
		}
	}
	if c.needLogWindow {
		// A line the engine writes after a warmup's reply (its timings,
		// a slot's release) would land in the measured window and be
		// read as the measured request's.
		srv.Log.Settle(windowQuiet, 2*time.Second)
	}
	obs := engine.Observation{Startup: srv.Log.Startup()}
	if c.needMetrics {
		if obs.Before, err = engine.Scrape(ctx, srv.BaseURL, s.Engine.MetricsPath); err != nil {
			return c.engineErr(srv, err)
		}
	}
	loadedBefore := c.mapped(ctx, srv)
	c.progress.Phase(slot.Seq, slot.Arm, "measuring")
	meter, meterErr := machine.StartContention(ctx, srv.Pid())
	raplBefore, raplErr := c.readRAPL()
	srv.Log.BeginWindow()
	samplerCPU := c.samplerCPU()
	releaseGC := holdGC()
	var req engine.Request
	var resp *engine.Response
	var measured []*engine.Response
	var streams engine.Concurrent // the arm's streams (concurrency.go)
	measuring := time.Now()
	for i := 0; i < c.policy.Schedule.Requests && err == nil; i++ {
		served++
		var prefix string
		req, prefix = c.servedRequest(slot, served)
		if streams, err = c.complete(ctx, srv.BaseURL, req, slot.Arm); err == nil {
			// The first stream is the request's; the window spans them all.
			resp = streams.Streams[0]
			measured = append(measured, streams.Window())
			sr := schema.ServedRequest{Kind: schema.RequestMeasured,
				Metrics: requestMetrics(s.Engine.Request.Endpoint, resp), Tokens: resp.Tokens, Prefix: prefix,
				OutputSHA256: resp.OutputSHA256(), EngineTimings: resp.Timings}
			if i > 0 {
				sr.Output = resp.Text
				if resp.CompleteTokenIDs() {
					sr.TokenIDs = resp.IDs()
				}
			}
			run.Requests = append(run.Requests, sr)
		}
	}
	ph.MeasuredS = time.Since(measuring).Seconds()
	releaseGC()
	if err == nil {
		// The window's figures (footprint, energy) are the whole
		// window's; the first measured request stands for the start's
		// text, tokens and timings, the last for the reply counters read.
		resp = windowResponse(measured)
	}
	if err == nil && resp.Wall > 0 {
		fp := &schema.Footprint{CPUS: resp.SelfCPU.Seconds(), WindowS: resp.Wall.Seconds(), Reads: resp.Reads.String(), Note: resp.ReadsNote}
		if after := c.samplerCPU(); samplerCPU >= 0 && after >= samplerCPU {
			fp.SamplerS = (after - samplerCPU).Seconds()
			fp.CPUS += fp.SamplerS
		}
		run.Footprint = fp
	}
	if meterErr == nil {
		if ct, err := meter.Stop(context.WithoutCancel(ctx)); err == nil {
			run.Contention = ct.Record()
			if c.policy.Gates.Quiet != nil {
				// The window, quiet by the gate's rule, counts toward the
				// next run's quiet window.
				c.credit = meter.QuietCredit(context.WithoutCancel(ctx), c.quietConfig())
			}
		}
	}
	raplAfter, raplAfterErr := c.readRAPL()
	obs.Window = srv.Log.EndWindow(windowQuiet, 2*time.Second)
	loadedAfter := c.mapped(ctx, srv)
	var gpuEnergy *schema.Energy
	if err == nil {
		run.GPUWindow, gpuEnergy = c.gpuWindow(resp)
	}
	if err != nil {
		return c.engineErr(srv, fmt.Errorf("measured request: %w", err))
	}
	if c.needMetrics {
		if obs.After, err = engine.Scrape(ctx, srv.BaseURL, s.Engine.MetricsPath); err != nil {
			return c.engineErr(srv, err)
		}
	}
	obs.Reply = measured[len(measured)-1].Final
	if c.needProps {
		if obs.Props, err = engine.Props(ctx, srv.BaseURL); err != nil {
			return c.engineErr(srv, err)
		}
	}

	run.Tokens, run.TokenSource = resp.Tokens, resp.TokenSource
	run.Impossible = append(run.Impossible, resp.Impossible...)
	run.EngineTimings = resp.Timings
	run.Output, run.Reasoning = resp.Text, resp.Reasoning
	c.tokenIDs(ctx, slot, srv.BaseURL, srv.Log.Mark, req, resp, warm, run)
	run.OutputSHA256 = resp.OutputSHA256()
	run.Metrics = schema.StartMetrics(run.Requests)
	run.Energy = windowEnergy(gpuEnergy, raplBefore, raplAfter, errors.Join(raplErr, raplAfterErr), resp.Wall)
	schema.EnergyMetrics(run, len(measured))
	if err := c.observe(obs, run); err != nil {
		return err
	}
	if err := c.loaded(run, loadedBefore, loadedAfter); err != nil {
		return err
	}
	return c.recordStreams(streams, obs, run)
}

// observe reads what every engine kind reports the same way from its
// observation: the scenario's own metrics, declines and counters.
func (c *campaign) observe(obs engine.Observation, run *schema.Run) error {
	c.readExtraMetrics(obs, run)
	run.Declines = declines(c.policy.Decline, obs.Window)
	run.Counters = map[string]schema.CounterReading{}
	obs.Version = c.engines.version(run.Arm)
	for _, k := range c.counters {
		rd, err := k.Read(obs)
		if err != nil {
			return err
		}
		run.Counters[k.Name] = schema.CounterReading{Value: rd.Value, Text: rd.Text, Note: rd.Note, Absent: rd.Absent, Impossible: rd.Impossible != nil}
		if rd.Impossible != nil {
			run.Impossible = append(run.Impossible, *rd.Impossible)
		}
	}
	return nil
}

// engineErr adds what the engine last logged, and whether it died, to a
// failure while it was serving.
func (c *campaign) engineErr(srv *engine.Server, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	reason := err.Error()
	if exited, how := srv.Exited(); exited {
		reason = fmt.Sprintf("%v; the engine exited (%s)", err, how)
	}
	tail := srv.Log.Tail()
	if len(tail) > 12 {
		tail = tail[len(tail)-12:]
	}
	return &engine.StartError{Reason: reason, LogTail: tail}
}

func (c *campaign) request() engine.Request {
	r := c.scenario.Engine.Request
	return engine.Request{
		Endpoint:    r.Endpoint,
		Prompt:      r.Prompt,
		Model:       r.Model,
		MaxTokens:   r.MaxTokens,
		Temperature: r.Temperature,
		Seed:        r.Seed,
		IgnoreEOS:   r.IgnoreEOS,
		Stop:        r.Stop,
		Reads:       reads(c.policy.EventTimes),
		PrefixCache: c.policy.PrefixCache.State,
		Timeout:     r.Timeout.Duration,
	}
}

// armLaunch returns the command line and environment of slot's arm, and
// the path of the run's log, which it names in run.Log.
func (c *campaign) armLaunch(slot Slot, run *schema.Run) ([]string, map[string]string, string) {
	l := c.scenario.Launch(slot.Arm)
	run.Log = schema.RunLog(slot.Seq, slot.Arm)
	return l.Command, l.Env, filepath.Join(c.dataDir, run.Log)
}

// leftovers are the processes an engine left running, as the run
// records them.
func leftovers(l []engine.Leftover) []schema.HostProcess {
	var out []schema.HostProcess
	for _, p := range l {
		out = append(out, schema.HostProcess{PID: p.PID, Name: p.Name})
	}
	return out
}

// engineOutput is what the run records of the engine's output: set when
// it flooded the measured window or its log was cut.
func engineOutput(w engine.WindowOutput, cut int64) *schema.EngineOutput {
	if !w.Flood() && cut == 0 {
		return nil
	}
	return &schema.EngineOutput{WindowBytes: w.Bytes, Flood: w.Flood(), LogCutBytes: cut}
}

func secondsDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// reads is how the measured stream is read.
func reads(tokenTimes bool) engine.Reads {
	if tokenTimes {
		return engine.ReadEveryEvent
	}
	return engine.ReadEnds
}

// freezeMaxProcs stops the Go runtime from re-reading the CPU limit (the
// cgroup's cpu.max and the affinity mask) every second to adjust
// GOMAXPROCS: each reading woke decodebench inside measured windows.
func freezeMaxProcs() { runtime.GOMAXPROCS(runtime.GOMAXPROCS(0)) }

// holdGC collects garbage now and holds the collector off until the
// returned function is called: a collection inside the measured window
// would run on the engine's cores (it cost a third of decodebench's CPU
// there). A window allocates little: the stream's bytes and events. What
// an engine streams is bounded (engine.StreamLimit), and a soft memory
// limit of the live heap plus gcHeldHeadroom brings the collector back
// should garbage reach it: a held collector never lets memory grow
// without bound.
func holdGC() (release func()) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	oldLimit := debug.SetMemoryLimit(int64(ms.HeapAlloc) + gcHeldHeadroom)
	old := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	}
}

// gcHeldHeadroom is how much the heap may grow while the collector is held.
const gcHeldHeadroom = 512 << 20

// samplerCPU is the GPU sampler's CPU time so far; -1 without one.
func (c *campaign) samplerCPU() time.Duration {
	if c.host.gpu == nil {
		return -1
	}
	return c.host.gpu.CPU()
}

// warmups sends the start's warmups (the last one whole where it gives
// the identity check's token ids, warmupids.go), keeping each in the run,
// and adds their time to the run's warmup phase. served counts the
// requests the start has served.
func (c *campaign) warmups(ctx context.Context, slot Slot, srv *engine.Server, run *schema.Run, served *int) (warmIDs, error) {
	s := c.scenario
	ph := phasesOf(run)
	warming := time.Now()
	defer func() {
		if s.Schedule.Warmup > 0 {
			ph.WarmupS += time.Since(warming).Seconds()
		}
	}()
	var warm warmIDs
	for i := 0; i < s.Schedule.Warmup; i++ {
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("warmup %d/%d", i+1, s.Schedule.Warmup))
		srv.Log.Mark("warmup request %d", i+1)
		*served++
		wreq, prefix := c.servedRequest(slot, *served)
		if i == s.Schedule.Warmup-1 && c.wholeWarmup(slot.Arm, wreq) {
			sr, w, err := c.warmWhole(ctx, slot, srv.BaseURL, wreq)
			if err != nil {
				return warm, c.engineErr(srv, fmt.Errorf("warmup request %d: %w", i+1, err))
			}
			sr.Prefix = prefix
			run.Requests = append(run.Requests, sr)
			warm = w
			continue
		}
		wstreams, err := c.complete(ctx, srv.BaseURL, wreq, slot.Arm)
		if err != nil {
			return warm, c.engineErr(srv, fmt.Errorf("warmup request %d: %w", i+1, err))
		}
		wresp := wstreams.Streams[0]
		run.Requests = append(run.Requests, schema.ServedRequest{Kind: schema.RequestWarmup,
			Metrics: requestMetrics(s.Engine.Request.Endpoint, wresp), Tokens: wresp.Tokens, Prefix: prefix})
	}
	return warm, nil
}

// windowQuiet is how long the engine's log must be quiet before a
// measured window begins and before it ends. The end waits whatever the
// scenario reads: check holds a reply's figures to the window's lines
// (llama-server's draft acceptance line against the reply's
// draft_n_accepted), which the engine writes after its reply.
const windowQuiet = 150 * time.Millisecond

package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/console"
	"github.com/decodebench/decodebench/machine"
)

func machineCommand() *cli.Command {
	return &cli.Command{
		Name:  "machine",
		Usage: "print this machine's identity and a live snapshot of its load, thermal and power state",
		Description: `What an admin runs before trusting a runner. Every source is optional: a tool that is
missing is listed as not available. --watch INTERVAL samples until interrupted (Ctrl-C ends
it, exit 0). --json prints one JSON object (with --watch: the identity, then one snapshot a
line).`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "watch", Usage: "sample every `INTERVAL` until interrupted"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runMachine(ctx, c.App.Writer, c.Duration("watch"), c.Bool("json"))
		},
	}
}

func runMachine(ctx context.Context, w io.Writer, watch time.Duration, asJSON bool) error {
	if watch < 0 {
		return &exitError{code: 1, msg: "machine: --watch must be positive"}
	}
	rep := console.MachineReport{Telemetry: machine.ReadTelemetry(ctx)}
	id, err := machine.Identify(ctx)
	rep.Identity = id
	if err != nil {
		rep.IdentityError = err.Error()
	}
	sampler := machine.NewSampler()
	snap := machine.TakeSnapshot(ctx, sampler)
	if ctx.Err() != nil {
		return nil // interrupted before the first snapshot: nothing to say
	}
	rep.Snapshot = &snap
	rep.Warnings = snap.Conditions.Warnings()
	if rep.Warnings == nil {
		rep.Warnings = []machine.Warning{}
	}
	enc := json.NewEncoder(w)
	var snaps console.Snapshots
	if asJSON {
		if watch == 0 {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		console.WriteIdentity(w, rep)
		snaps.Write(w, snap)
	}
	if watch == 0 {
		return nil
	}
	t := time.NewTicker(watch)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil // interrupted: a clean end
		case <-t.C:
		}
		snap := machine.TakeSnapshot(ctx, sampler)
		if ctx.Err() != nil {
			return nil
		}
		if asJSON {
			if err := enc.Encode(snap); err != nil {
				return err
			}
		} else {
			snaps.Write(w, snap)
		}
	}
}

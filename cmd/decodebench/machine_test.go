package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/console"
)

func TestMachineJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runMachine(context.Background(), &out, 0, true); err != nil {
		t.Fatal(err)
	}
	var rep console.MachineReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if rep.Identity.Slug == "" || rep.Snapshot == nil || rep.Snapshot.Load == nil || rep.Telemetry.OS == "" || rep.Warnings == nil {
		t.Errorf("incomplete report: %s", out.String())
	}
}

// TestMachineWatchInterrupt runs `decodebench machine --watch` in a child
// process and interrupts it: it must end at once, with exit status 0,
// after printing a few samples.
func TestMachineWatchInterrupt(t *testing.T) {
	childMain()
	cmd := childCommand(t, "machine --watch 100ms --json")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for lines < 3 && sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Errorf("line %d not JSON: %v", lines+1, err)
		}
		lines++
	}
	if lines < 3 {
		t.Fatalf("only %d lines before the end", lines)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
	}
	err = cmd.Wait()
	if err != nil {
		t.Errorf("interrupted watch: %v, want exit status 0", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to end", d)
	}
}

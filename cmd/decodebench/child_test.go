package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A test that needs decodebench in a process of its own (to signal it, or
// to hold a lock it must not share) re-runs the test binary: childMain,
// called first in the test, runs decodebench there and exits, and
// childCommand starts that child with the arguments to give it.

// childMain runs decodebench with the arguments of DECODEBENCH_TEST_ARGS
// and exits, when this process is a test's child.
func childMain() {
	if os.Getenv("DECODEBENCH_TEST_MAIN") == "1" {
		os.Exit(exitCode(newApp().Run(append([]string{"decodebench"}, strings.Fields(os.Getenv("DECODEBENCH_TEST_ARGS"))...))))
	}
}

// childCommand is the command that runs test t again as a child running
// decodebench with args (split at spaces).
func childCommand(t *testing.T, args string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
	cmd.Env = append(os.Environ(), "DECODEBENCH_TEST_MAIN=1", "DECODEBENCH_TEST_ARGS="+args)
	return cmd
}

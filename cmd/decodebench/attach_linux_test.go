//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// decodebench is undumpable from its first step (runMain), so that an
// engine it runs cannot attach to it; checked in a child process, which
// runs runMain as the binary does.
func TestDecodebenchDeniesAttach(t *testing.T) {
	if os.Getenv("DECODEBENCH_ATTACH_PROBE") == "1" {
		runMain([]string{"decodebench", "--version"})
		if attachDenied() {
			os.Stderr.WriteString("undumpable\n")
		} else {
			os.Stderr.WriteString("dumpable\n")
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDecodebenchDeniesAttach$")
	cmd.Env = append(os.Environ(), "DECODEBENCH_ATTACH_PROBE=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "undumpable") {
		t.Fatalf("after runMain: %v\n%s", err, out)
	}
}

package harness

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/schema"
)

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := unix.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

func machineIdentity() schema.MachineInfo { return schema.MachineInfo{} }

package machine

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
)

// sysctlTimeout bounds the sysctl call. It answers in milliseconds; the bound
// only keeps a wedged system from stalling a benchmark.
const sysctlTimeout = 5 * time.Second

// cpuModel returns the CPU brand string from gopsutil's per-CPU info, or, on
// macOS when that is empty, from `sysctl -n machdep.cpu.brand_string`.
// gopsutil reads the same key in-process but discards the error, so an empty
// name there cannot be told apart from a failed read. The brand string is
// what the record file name is made from, so one more try through the
// command, which does report its error, is worth a process start.
func cpuModel(ctx context.Context, infos []cpu.InfoStat) (string, error) {
	var name string
	if len(infos) > 0 {
		name = strings.TrimSpace(infos[0].ModelName)
	}
	// gopsutil says "Undefined" for Arm parts missing from its table.
	if name == "Undefined" {
		name = ""
	}
	if name != "" || runtime.GOOS != "darwin" {
		return name, nil
	}

	ctx, cancel := context.WithTimeout(ctx, sysctlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sysctl", "-n", "machdep.cpu.brand_string")
	cmd.WaitDelay = time.Second
	out, _, err := RunBounded(cmd)
	if err != nil {
		return "", fmt.Errorf("machine: sysctl -n machdep.cpu.brand_string: %w", err)
	}
	return parseBrandString(out), nil
}

// parseBrandString reads the output of `sysctl -n machdep.cpu.brand_string`:
// the brand string alone on one line, such as "Apple M1 Pro".
func parseBrandString(out []byte) string {
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

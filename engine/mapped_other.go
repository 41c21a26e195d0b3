//go:build !linux

package engine

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"

	"github.com/decodebench/decodebench/internal/capped"
)

// maxLsofBytes bounds lsof's answer read back (a Python engine's process
// has a few thousand files open or mapped, about 100 bytes each).
const maxLsofBytes = 4 << 20

// mappedFiles asks lsof for the files process pid has as text or mapped
// (macOS: the dyld shared cache, the dylibs and bundles loaded outside
// it, such as the GPU's Metal driver, and the Metal libraries open).
func mappedFiles(ctx context.Context, pid int) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out := &capped.Buffer{Max: maxLsofBytes}
	cmd := exec.CommandContext(ctx, "lsof", "-n", "-P", "-F", "ftn", "-p", strconv.Itoa(pid))
	cmd.Stdout = out
	// lsof exits 1 when some file could not be listed; what it printed
	// still holds the rest.
	if err := cmd.Run(); err != nil && len(out.Bytes()) == 0 {
		return nil, fmt.Errorf("mapped files of process %d: lsof: %v", pid, err)
	}
	return parseLsof(out.Bytes()), nil
}

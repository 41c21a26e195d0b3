package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// nvidiaSMIArgs asks for exactly the fields of a GPU, in the order
// parseNvidiaSMI reads them, without header or units.
var nvidiaSMIArgs = []string{
	"--query-gpu=name,driver_version,memory.total",
	"--format=csv,noheader,nounits",
}

// nvidiaSMITimeout bounds one nvidia-smi call. It usually answers in well
// under a second, but takes seconds to initialise the driver when
// persistence mode is off; a hung driver must not hang Identify.
const nvidiaSMITimeout = 10 * time.Second

// nvidiaGPUs lists the NVIDIA GPUs through nvidia-smi. Without nvidia-smi on
// PATH it returns no GPUs and no error: most machines have none.
func nvidiaGPUs(ctx context.Context) ([]schema.GPUInfo, error) {
	path, err := exec.LookPath("nvidia-smi")
	if err != nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, nvidiaSMITimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, nvidiaSMIArgs...)
	// Should nvidia-smi leave a child holding its output open, give up
	// shortly after killing it instead of waiting for the child.
	cmd.WaitDelay = time.Second
	out, stderr, err := RunBounded(cmd)
	if err != nil {
		if errors.Is(err, ErrToolOutputTooLarge) {
			return nil, fmt.Errorf("machine: nvidia-smi %s: %w", strings.Join(nvidiaSMIArgs, " "), err)
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		// nvidia-smi explains its failures on stdout
		// ("NVIDIA-SMI has failed because it couldn't communicate with the
		// NVIDIA driver..."), other tools on stderr.
		if m := bytes.TrimSpace(append(out, stderr...)); len(m) > 0 {
			return nil, fmt.Errorf("machine: nvidia-smi %s: %w: %s", strings.Join(nvidiaSMIArgs, " "), err, quoteLine(string(m)))
		}
		return nil, fmt.Errorf("machine: nvidia-smi %s: %w", strings.Join(nvidiaSMIArgs, " "), err)
	}
	gpus, err := parseNvidiaSMI(out)
	if err != nil {
		return nil, fmt.Errorf("machine: nvidia-smi %s: %w", strings.Join(nvidiaSMIArgs, " "), err)
	}
	return gpus, nil
}

// parseNvidiaSMI reads the output of
//
//	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader,nounits
//
// one GPU a line, such as "NVIDIA H200, 580.159.04, 143771".
// A memory total that nvidia-smi cannot give comes back as a bracketed word
// ("[N/A]" on the unified-memory GB10, "[Not Supported]" elsewhere); it is
// read as 0 rather than failing the whole machine.
// Any other shape is an error: it means the query and the parser disagree.
func parseNvidiaSMI(out []byte) ([]schema.GPUInfo, error) {
	var gpus []schema.GPUInfo
	for i, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: %d comma-separated fields, want 3 (name, driver_version, memory.total): %q", i+1, len(f), quoteLine(line))
		}
		g := schema.GPUInfo{
			Name:   strings.TrimSpace(f[0]),
			Driver: strings.TrimSpace(f[1]),
		}
		if g.Name == "" {
			return nil, fmt.Errorf("line %d: empty GPU name: %q", i+1, quoteLine(line))
		}
		memTotal := strings.TrimSpace(f[2])
		if strings.HasPrefix(memTotal, "[") && strings.HasSuffix(memTotal, "]") {
			g.MemoryMiB = 0
		} else if n, err := strconv.ParseInt(memTotal, 10, 64); err != nil || n < 0 {
			return nil, fmt.Errorf("line %d: memory.total %q is not a MiB count: %q", i+1, quoteLine(memTotal), quoteLine(line))
		} else {
			g.MemoryMiB = n
		}
		gpus = append(gpus, g)
	}
	return gpus, nil
}

package machine

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// A GPU is one accelerator as its driver reports it.
type GPU struct {
	Name   string `json:"name"`   // as the driver spells it, e.g. "NVIDIA H200"
	Driver string `json:"driver"` // driver version, e.g. "580.159.04"
	// MemoryMiB is the device's own memory. It is 0 when the driver reports
	// none, as on unified-memory parts such as the NVIDIA GB10, whose memory
	// is MemoryBytes of the Identity.
	MemoryMiB int64 `json:"memory_mib"`
}

// An Identity says which machine a benchmark record was measured on.
// Records from different machines are only comparable when their slugs
// match, so the fields are those that change decode speed or explain why it
// changed: the chips, their counts, memory, and the software under them.
type Identity struct {
	Hostname        string `json:"hostname"`
	OS              string `json:"os"`               // runtime.GOOS spelling: "linux", "darwin"
	Platform        string `json:"platform"`         // distribution or product: "ubuntu", "darwin"
	PlatformVersion string `json:"platform_version"` // "24.04", "15.1"
	Kernel          string `json:"kernel"`           // kernel release, e.g. "6.8.0-45-generic"
	Arch            string `json:"arch"`             // machine hardware name as uname -m says it: "x86_64", "aarch64", "arm64"
	CPUModel        string `json:"cpu_model"`        // brand string, e.g. "Apple M1 Ultra"
	Cores           int    `json:"cores"`            // physical cores
	Threads         int    `json:"threads"`          // logical CPUs
	MemoryBytes     uint64 `json:"memory_bytes"`     // installed memory as the OS sees it
	GPUs            []GPU  `json:"gpus,omitempty"`   // NVIDIA GPUs as nvidia-smi lists them; none on Apple Silicon, whose GPU is part of the SoC in CPUModel
	Slug            string `json:"slug"`             // Slug(CPUModel, GPUs)
}

// Identify describes the machine it runs on.
//
// It never stops at the first failure: a record with a partial identity is
// worth more than none, so Identify fills in every field it can and returns
// the Identity together with an error that joins each part that failed.
// A tool that is absent (nvidia-smi on a machine without NVIDIA drivers) is
// not a failure; a tool that is present and fails is.
func Identify(ctx context.Context) (Identity, error) {
	var id Identity
	var errs []error

	if h, err := host.InfoWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("machine: host info: %w", err))
		id.OS = runtime.GOOS
	} else {
		id.Hostname = h.Hostname
		id.OS = h.OS
		id.Platform = h.Platform
		id.PlatformVersion = h.PlatformVersion
		id.Kernel = h.KernelVersion
		id.Arch = h.KernelArch
	}
	if id.Arch == "" {
		// Better the architecture this binary was built for than nothing.
		id.Arch = runtime.GOARCH
	}

	infos, err := cpu.InfoWithContext(ctx)
	if err != nil {
		errs = append(errs, fmt.Errorf("machine: cpu info: %w", err))
	}
	id.CPUModel, err = cpuModel(ctx, infos)
	if err != nil {
		errs = append(errs, err)
	}

	if n, err := cpu.CountsWithContext(ctx, false); err != nil {
		errs = append(errs, fmt.Errorf("machine: physical core count: %w", err))
	} else {
		id.Cores = n
	}
	if n, err := cpu.CountsWithContext(ctx, true); err != nil {
		errs = append(errs, fmt.Errorf("machine: logical cpu count: %w", err))
	} else {
		id.Threads = n
	}

	if vm, err := mem.VirtualMemoryWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("machine: memory: %w", err))
	} else {
		id.MemoryBytes = vm.Total
	}

	id.GPUs, err = nvidiaGPUs(ctx)
	if err != nil {
		errs = append(errs, err)
	}

	id.Slug = Slug(id.CPUModel, id.GPUs)
	return id, errors.Join(errs...)
}

package machine

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"

	"github.com/decodebench/decodebench/schema"
)

// Identify is the machine's identity: the hardware and the OS it runs
// on, as a record's machine section stores it. It is neither the engine's
// identity (engine.Identify: its binary, libraries and models) nor output
// identity (package outputs). Records from different machines are only
// comparable when their slugs match, so the fields are those that change
// decode speed or explain why it changed: the chips, their counts,
// memory, and the software under them.
//
// It never stops at the first failure: a record with a partial identity is
// worth more than none, so Identify fills in every field it can and returns
// the MachineInfo together with an error that joins each part that failed.
// A tool that is absent (nvidia-smi on a machine without NVIDIA drivers) is
// not a failure; a tool that is present and fails is.
func Identify(ctx context.Context) (schema.MachineInfo, error) {
	var id schema.MachineInfo
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

package recorder

import (
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
)

// EngineFrom converts the engine's identity into the persisted form.
func EngineFrom(id engine.Identity) EngineInfo {
	out := EngineInfo{Command: id.Command, Path: id.Path, SHA256: id.SHA256, Version: id.Version, RealBinary: id.RealBinary, RealSHA256: id.RealSHA256,
		SourceDir: id.SourceDir, SourceCommit: id.SourceCommit, SourceDirty: id.SourceDirty, Problems: id.Problems}
	for _, m := range id.Models {
		out.Models = append(out.Models, ModelFile{Arg: m.Arg, Path: m.Path, Bytes: m.Bytes, SHA256: m.SHA256})
	}
	return out
}

// MachineFrom converts the machine's identity into the persisted form.
func MachineFrom(id machine.Identity) MachineInfo {
	out := MachineInfo{Hostname: id.Hostname, OS: id.OS, Platform: id.Platform, PlatformVersion: id.PlatformVersion, Kernel: id.Kernel, Arch: id.Arch,
		CPUModel: id.CPUModel, Cores: id.Cores, Threads: id.Threads, MemoryBytes: id.MemoryBytes, Slug: id.Slug}
	for _, g := range id.GPUs {
		out.GPUs = append(out.GPUs, GPUInfo{Name: g.Name, Driver: g.Driver, MemoryMiB: g.MemoryMiB})
	}
	return out
}

// LoadFrom converts a load sample.
func LoadFrom(l machine.Load) *LoadSample {
	return &LoadSample{Time: l.Time.Round(0), Load1: l.Load1, Load5: l.Load5, Load15: l.Load15, CPUBusyPct: l.CPUBusyPct, MemAvailableBytes: l.MemAvailableBytes, SwapUsedBytes: l.SwapUsedBytes}
}

// ContentionFrom converts a contention measurement.
func ContentionFrom(c machine.Contention) *ContentionSample {
	return &ContentionSample{Busy: c.Busy, Measured: c.Measured, Others: c.Others}
}

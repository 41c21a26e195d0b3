package machine

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func TestSlug(t *testing.T) {
	gpu := func(names ...string) []schema.GPUInfo {
		var gs []schema.GPUInfo
		for _, n := range names {
			gs = append(gs, schema.GPUInfo{Name: n})
		}
		return gs
	}
	tests := []struct {
		cpu  string
		gpus []schema.GPUInfo
		want string
	}{
		// An NVIDIA GPU names the machine, whatever the CPU.
		{"Intel(R) Xeon(R) Processor", gpu("NVIDIA H200"), "h200"},
		{"Intel(R) Xeon(R) CPU E5-2698 v4 @ 2.20GHz", gpu("Tesla V100-SXM2-16GB"), "v100"},
		{"Cortex-X925", gpu("NVIDIA GB10"), "gb10"},
		{"AMD Ryzen 9 7950X 16-Core Processor", gpu("NVIDIA GeForce RTX 4090"), "rtx4090"},
		{"AMD EPYC 7742 64-Core Processor", gpu("NVIDIA A100-SXM4-80GB"), "a100"},
		{"", gpu("NVIDIA H100 80GB HBM3"), "h100"},
		{"", gpu("NVIDIA H100 PCIe"), "h100"},
		{"", gpu("NVIDIA H200 NVL"), "h200"},
		{"", gpu("NVIDIA GH200 480GB"), "gh200"},
		{"", gpu("NVIDIA L40S"), "l40s"},
		{"", gpu("NVIDIA A10G"), "a10g"},
		{"", gpu("Tesla T4"), "t4"},
		{"", gpu("NVIDIA RTX A6000"), "rtxa6000"},
		{"", gpu("NVIDIA RTX 6000 Ada Generation"), "rtx6000ada"},
		{"", gpu("Quadro RTX 6000"), "rtx6000"},
		{"", gpu("NVIDIA GeForce RTX 4080 SUPER"), "rtx4080super"},
		{"", gpu("NVIDIA GeForce RTX 3090 Ti"), "rtx3090ti"},
		{"", gpu("NVIDIA TITAN RTX"), "titanrtx"},
		// With several GPUs the biggest names the machine.
		{"", []schema.GPUInfo{{Name: "NVIDIA GeForce GT 1030", MemoryMiB: 2048}, {Name: "NVIDIA GeForce RTX 4090", MemoryMiB: 24564}}, "rtx4090"},
		{"", []schema.GPUInfo{{Name: "NVIDIA H200", MemoryMiB: 143771}, {Name: "NVIDIA H200", MemoryMiB: 143771}}, "h200"},
		{"Apple M1 Pro", []schema.GPUInfo{{Name: ""}}, "m1pro"},

		// Apple Silicon: the SoC.
		{"Apple M1 Ultra", nil, "m1ultra"},
		{"Apple M3 Ultra", nil, "m3ultra"},
		{"Apple M5 Max", nil, "m5max"},
		{"Apple M1 Pro", nil, "m1pro"},
		{"Apple M2", nil, "m2"},
		{"Apple M4 Max (Virtual)", nil, "m4max"},
		{"Apple processor", nil, "apple"},

		// AMD.
		{"AMD EPYC 7B13", nil, "epyc"},
		{"AMD EPYC 9654 96-Core Processor", nil, "epyc"},
		{"AMD Ryzen 9 7950X", nil, "ryzen"},
		{"AMD Ryzen Threadripper PRO 5995WX 64-Cores", nil, "ryzen"},
		{"AMD Ryzen AI Max+ 395 w/ Radeon 8060S", nil, "gfx1151"},
		{"AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", nil, "gfx1151"},
		{"AMD RYZEN AI MAX+ PRO 395 w/ Radeon 8060S", nil, "gfx1151"},
		{"AMD Ryzen AI 9 HX 370 w/ Radeon 890M", nil, "gfx1150"},
		{"AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", nil, "ryzen"}, // 780M not in the table
		{"AMD Opteron(tm) Processor 6274", nil, "amd"},

		// Intel.
		{"Intel(R) Xeon(R) Processor", nil, "xeon"},
		{"Intel(R) Xeon(R) Platinum 8480+", nil, "xeon"},
		{"Intel(R) Core(TM) i9-9900K", nil, "corei9"},
		{"Intel(R) Core(TM) i7-10700K CPU @ 3.80GHz", nil, "corei7"},
		{"13th Gen Intel(R) Core(TM) i9-13900K", nil, "corei9"},
		{"Intel(R) Core(TM) Ultra 7 155H", nil, "coreultra7"},
		{"Intel(R) Core(TM) 5 120U", nil, "core5"},
		{"Intel(R) Core(TM)2 Duo CPU     E8400  @ 3.00GHz", nil, "core2"},
		{"Intel(R) Celeron(R) N5105 @ 2.00GHz", nil, "celeron"},

		// Anything else: the first word.
		{"Cortex-A72", nil, "cortexa72"},
		{"Neoverse-V2", nil, "neoversev2"},
		{"ARMv7 Processor rev 4 (v7l)", nil, "armv7"},
		{"", nil, "unknown"},
		{"   ", nil, "unknown"},
		{"(?)", nil, "unknown"},
	}
	for _, tt := range tests {
		got := Slug(tt.cpu, tt.gpus)
		if got != tt.want {
			t.Errorf("Slug(%q, %v) = %q, want %q", tt.cpu, tt.gpus, got, tt.want)
		}
		if !slugRE.MatchString(got) {
			t.Errorf("Slug(%q, %v) = %q, not [a-z0-9]+", tt.cpu, tt.gpus, got)
		}
	}
}

// TestSlugFixtures names machines from the brand strings and GPU names in
// real command outputs.
func TestSlugFixtures(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"testdata/macos/sysctl-n-machdep.cpu.brand_string.m1pro.txt", "m1pro"},
		{"testdata/macos/sysctl-machdep.cpu.m1-bigsur.txt", "m1"},
		{"testdata/macos/sysctl-a-machdep.cpu.m1pro-8core.txt", "m1pro"},
		{"testdata/macos/sysctl-A-machdep.cpu.apple-processor-early-bigsur.txt", "apple"},
		{"testdata/macos/sysctl-hw-machdep.m3max-14core-36gb.txt", "m3max"},
		{"testdata/macos/sysctl-hw-machdep.m4max-16core-64gb.txt", "m4max"},
		{"testdata/macos/sysctl-hw-machdep.m5-10core-24gb.txt", "m5"},
		{"testdata/nvidia/h200/host-linux.txt", "xeon"},
		{"testdata/nvidia/h200/nvidia-smi-query-name-driver-memory.csv", "h200"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b := readFile(t, tt.file)
			var cpu string
			var gpus []schema.GPUInfo
			switch {
			case strings.HasSuffix(tt.file, ".csv"):
				var err error
				if gpus, err = parseNvidiaSMI(b); err != nil {
					t.Fatal(err)
				}
			case strings.Contains(tt.file, "sysctl-n-"):
				cpu = parseBrandString(b)
			default:
				// "machdep.cpu.brand_string: Apple M1" from sysctl listings,
				// "model name\t: Intel(R) Xeon(R) Processor" from /proc/cpuinfo.
				cpu = fieldValue(t, b, "machdep.cpu.brand_string", "model name")
			}
			if got := Slug(cpu, gpus); got != tt.want {
				t.Errorf("Slug(%q, %v) = %q, want %q", cpu, gpus, got, tt.want)
			}
		})
	}
}

// fieldValue returns the value of the first "key: value" line with one of
// the keys.
func fieldValue(t *testing.T, b []byte, keys ...string) string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		for _, key := range keys {
			if strings.TrimSpace(k) == key {
				return strings.TrimSpace(v)
			}
		}
	}
	t.Fatalf("no line with a key of %q", keys)
	return ""
}

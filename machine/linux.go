package machine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// LinuxTelemetry is what Linux tells about its CPUs.
type LinuxTelemetry struct {
	CPUModel string `json:"cpu_model,omitempty"`
	// Governors are the distinct cpufreq scaling governors of the CPUs,
	// such as ["performance"] or ["powersave"]; empty where the kernel
	// exposes no cpufreq (most VMs).
	Governors []string `json:"governors,omitempty"`
}

// FreqRange is the spread of the CPUs' current frequencies.
type FreqRange struct {
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	CPUs int     `json:"cpus"`
}

// A ThermalZone is one /sys/class/thermal/thermal_zoneN.
type ThermalZone struct {
	Zone  string  `json:"zone"` // "thermal_zone0"
	Type  string  `json:"type"` // "x86_pkg_temp", "acpitz"
	TempC float64 `json:"temp_c"`
	// TripC is the lowest passive or hot trip point, 0 where none.
	TripC float64 `json:"trip_c,omitempty"`
}

// Hot says whether the zone is at or above its trip point.
func (z ThermalZone) Hot() bool { return z.TripC > 0 && z.TempC >= z.TripC }

// linux reads sysfs under root ("/" but for tests).
type linux struct{ root string }

func (l linux) telemetry(ctx context.Context, _ runner, t *Telemetry) {
	lt := &LinuxTelemetry{}
	t.Linux = lt
	if b, err := os.ReadFile(filepath.Join(l.root, "proc/cpuinfo")); err != nil {
		unavailable(&t.Unavailable, "/proc/cpuinfo", err)
	} else {
		lt.CPUModel = parseCPUInfoModel(b)
	}
	govs, err := readGovernors(l.root)
	if err != nil {
		unavailable(&t.Unavailable, "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor", err)
	}
	lt.Governors = govs
}

func (l linux) conditions(ctx context.Context, _ runner, c *Conditions) {
	if f, err := readCPUFreqs(l.root); err != nil {
		unavailable(&c.Unavailable, "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq", err)
	} else {
		c.CPUFreqMHz = f
	}
	if z, err := readThermalZones(l.root); err != nil {
		unavailable(&c.Unavailable, "/sys/class/thermal/thermal_zone*", err)
	} else {
		c.ThermalZones = z
	}
}

// parseCPUInfoModel returns the first "model name" of /proc/cpuinfo (x86),
// or "Model" (Raspberry Pi and other Arm boards).
func parseCPUInfoModel(b []byte) string {
	kv := parseColonLines(b)
	if m := kv["model name"]; m != "" {
		return m
	}
	return kv["Model"]
}

var errNoCPUFreq = errors.New("not available: no cpufreq in sysfs")

func readGovernors(root string) ([]string, error) {
	files, _ := filepath.Glob(filepath.Join(root, "sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor"))
	if len(files) == 0 {
		return nil, errNoCPUFreq
	}
	var govs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return govs, err
		}
		if g := strings.TrimSpace(string(b)); g != "" && !slices.Contains(govs, g) {
			govs = append(govs, g)
		}
	}
	sort.Strings(govs)
	return govs, nil
}

func readCPUFreqs(root string) (*FreqRange, error) {
	files, _ := filepath.Glob(filepath.Join(root, "sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq"))
	if len(files) == 0 {
		return nil, errNoCPUFreq
	}
	var r FreqRange
	sum := 0.0
	for _, f := range files {
		khz, err := readNumber(f)
		if err != nil {
			return nil, err
		}
		mhz := khz / 1000
		if r.CPUs == 0 || mhz < r.Min {
			r.Min = mhz
		}
		if mhz > r.Max {
			r.Max = mhz
		}
		sum += mhz
		r.CPUs++
	}
	r.Mean = sum / float64(r.CPUs)
	return &r, nil
}

func readThermalZones(root string) ([]ThermalZone, error) {
	dirs, _ := filepath.Glob(filepath.Join(root, "sys/class/thermal/thermal_zone[0-9]*"))
	if len(dirs) == 0 {
		return nil, errors.New("not available: no thermal zones in sysfs")
	}
	var zones []ThermalZone
	for _, d := range dirs {
		typ, err := os.ReadFile(filepath.Join(d, "type"))
		if err != nil {
			continue
		}
		milli, err := readNumber(filepath.Join(d, "temp"))
		if err != nil {
			continue // some zones refuse reads (ENODATA) when their sensor sleeps
		}
		z := ThermalZone{Zone: filepath.Base(d), Type: strings.TrimSpace(string(typ)), TempC: milli / 1000}
		trips, _ := filepath.Glob(filepath.Join(d, "trip_point_[0-9]*_type"))
		for _, tp := range trips {
			kind, err := os.ReadFile(tp)
			if err != nil {
				continue
			}
			if k := strings.TrimSpace(string(kind)); k != "passive" && k != "hot" {
				continue
			}
			t, err := readNumber(strings.TrimSuffix(tp, "_type") + "_temp")
			if err != nil || t <= 0 {
				continue
			}
			if c := t / 1000; z.TripC == 0 || c < z.TripC {
				z.TripC = c
			}
		}
		zones = append(zones, z)
	}
	if len(zones) == 0 {
		return nil, errors.New("no readable thermal zone")
	}
	sort.Slice(zones, func(i, j int) bool { return zoneNum(zones[i].Zone) < zoneNum(zones[j].Zone) })
	return zones, nil
}

func zoneNum(z string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(z, "thermal_zone"))
	return n
}

func readNumber(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
}

package machine

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// MinEnergySamples is the fewest power samples per GPU inside a measured
// window that energy is integrated from: fewer describe the window's
// power too coarsely to be worth a number.
const MinEnergySamples = 5

// EnergySampleInterval is the GPU sampler's interval when a scenario asks
// for energy: a two-second window then holds ten samples.
const EnergySampleInterval = 200 * time.Millisecond

// GPUEnergy integrates each GPU's power.draw samples over the window
// [from, to] and sums the GPUs: trapezoids between consecutive samples,
// and the first and last sample's power held out to the window's edges.
// It refuses (Unavailable) a window where some GPU has fewer than
// MinEnergySamples power samples.
func GPUEnergy(samples []GPUSample, from, to time.Time, interval time.Duration) *schema.Energy {
	e := &schema.Energy{Source: schema.EnergyNvidiaSMI, Coverage: []string{"gpu"}, IntervalS: interval.Seconds(), MinSamples: MinEnergySamples, WindowS: to.Sub(from).Seconds()}
	byGPU := map[int][]GPUSample{}
	for _, s := range samples {
		if s.PowerW != nil && !s.At.Before(from) && !s.At.After(to) {
			byGPU[s.Index] = append(byGPU[s.Index], s)
		}
	}
	if len(byGPU) == 0 {
		return &schema.Energy{Unavailable: fmt.Sprintf("no GPU power sample inside the %.2fs window (sampled every %v; at least %d needed)", e.WindowS, interval, MinEnergySamples)}
	}
	idx := make([]int, 0, len(byGPU))
	for i := range byGPU {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	fewest := -1
	for _, i := range idx {
		ss := byGPU[i]
		sort.Slice(ss, func(a, b int) bool { return ss[a].At.Before(ss[b].At) })
		if fewest < 0 || len(ss) < fewest {
			fewest = len(ss)
		}
		j := *ss[0].PowerW * ss[0].At.Sub(from).Seconds()
		for k := 1; k < len(ss); k++ {
			j += (*ss[k-1].PowerW + *ss[k].PowerW) / 2 * ss[k].At.Sub(ss[k-1].At).Seconds()
		}
		last := ss[len(ss)-1]
		j += *last.PowerW * to.Sub(last.At).Seconds()
		e.Joules += j
	}
	e.Samples = fewest
	if fewest < MinEnergySamples {
		return &schema.Energy{Unavailable: fmt.Sprintf("only %d GPU power sample(s) inside the %.2fs window (sampled every %v; at least %d needed)", fewest, e.WindowS, interval, MinEnergySamples)}
	}
	return e
}

// RAPLZone is one Linux powercap RAPL zone's energy counter.
type RAPLZone struct {
	// Name is the zone's own name (package-0, dram, core, uncore, psys);
	// Dir its folder under the powercap root.
	Name, Dir string
	// EnergyUJ is the counter in microjoules; MaxUJ where it wraps to 0.
	EnergyUJ, MaxUJ uint64
}

// RAPLRoot is where Linux exposes RAPL.
const RAPLRoot = "/sys/class/powercap"

// ReadRAPL reads the package zones (intel-rapl:N) and their DRAM
// subzones (intel-rapl:N:M named dram) under root; core, uncore and psys
// are left out, being parts of a package or the whole platform, which
// would count joules twice. It fails when no zone can be read (absent,
// or, as on most kernels since 2020, readable by root only).
func ReadRAPL(root string) ([]RAPLZone, error) {
	dirs, _ := filepath.Glob(filepath.Join(root, "intel-rapl:*"))
	sort.Strings(dirs)
	var zones []RAPLZone
	var firstErr error
	for _, d := range dirs {
		name, err := readTrim(filepath.Join(d, "name"))
		if err != nil {
			continue
		}
		sub := strings.Count(filepath.Base(d), ":") > 1
		if (!sub && !strings.HasPrefix(name, "package")) || (sub && name != "dram") {
			continue
		}
		z := RAPLZone{Name: name, Dir: filepath.Base(d)}
		if z.EnergyUJ, err = readUint(filepath.Join(d, "energy_uj")); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if z.MaxUJ, err = readUint(filepath.Join(d, "max_energy_range_uj")); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		zones = append(zones, z)
	}
	switch {
	case len(zones) > 0:
		return zones, nil
	case firstErr != nil:
		return nil, fmt.Errorf("RAPL counters unreadable: %w", firstErr)
	default:
		return nil, fmt.Errorf("no RAPL package zone under %s", root)
	}
}

// RAPLEnergy is the energy between two readings of the same zones, each
// counter's wrap-around (past MaxUJ back to 0) undone.
func RAPLEnergy(before, after []RAPLZone, window time.Duration) *schema.Energy {
	e := &schema.Energy{Source: schema.EnergyRAPL, WindowS: window.Seconds()}
	at := map[string]RAPLZone{}
	for _, z := range before {
		at[z.Dir] = z
	}
	covered := map[string]bool{}
	for _, z := range after {
		b, ok := at[z.Dir]
		if !ok {
			continue
		}
		d := z.EnergyUJ - b.EnergyUJ
		if z.EnergyUJ < b.EnergyUJ {
			d = z.MaxUJ - b.EnergyUJ + z.EnergyUJ
		}
		e.Joules += float64(d) / 1e6
		c := "package"
		if z.Name == "dram" {
			c = "dram"
		}
		covered[c] = true
	}
	for _, c := range []string{"package", "dram"} {
		if covered[c] {
			e.Coverage = append(e.Coverage, c)
		}
	}
	if len(e.Coverage) == 0 {
		return &schema.Energy{Unavailable: "the RAPL zones changed during the window"}
	}
	return e
}

func readTrim(path string) (string, error) {
	b, err := os.ReadFile(path)
	return strings.TrimSpace(string(b)), err
}

func readUint(path string) (uint64, error) {
	s, err := readTrim(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(s, 10, 64)
}

// PowermetricsSample is one sample of macOS powermetrics' power
// samplers: its length and the power of each part it names, in watts.
type PowermetricsSample struct {
	At      time.Time
	Elapsed time.Duration
	// Watts by part: "cpu", "gpu", "ane".
	Watts map[string]float64
}

// ParsePowermetrics reads powermetrics' text output (samplers cpu_power
// and gpu_power): each "*** Sampled system activity (DATE) (N ms
// elapsed) ***" header starts a sample, and its "CPU Power: N mW", "GPU
// Power: N mW" and "ANE Power: N mW" lines give the power of those parts.
func ParsePowermetrics(text string) ([]PowermetricsSample, error) {
	var out []PowermetricsSample
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "*** Sampled system activity (") {
			rest := strings.TrimPrefix(line, "*** Sampled system activity (")
			date, after, ok := strings.Cut(rest, ") (")
			if !ok {
				return nil, fmt.Errorf("powermetrics: sample header %q", quoteLine(line))
			}
			at, err := time.Parse("Mon Jan _2 15:04:05 2006 -0700", date)
			if err != nil {
				return nil, fmt.Errorf("powermetrics: sample time %q: %w", quoteLine(date), err)
			}
			ms, _, _ := strings.Cut(after, "ms elapsed")
			v, err := strconv.ParseFloat(strings.TrimSpace(ms), 64)
			if err != nil {
				return nil, fmt.Errorf("powermetrics: elapsed %q: %w", quoteLine(after), err)
			}
			out = append(out, PowermetricsSample{At: at, Elapsed: time.Duration(v * float64(time.Millisecond)), Watts: map[string]float64{}})
			continue
		}
		if len(out) == 0 {
			continue
		}
		w := out[len(out)-1].Watts
		name, v, ok := strings.Cut(line, " Power: ")
		part := strings.ToLower(name)
		switch {
		case !ok:
			continue
		case name == "CPU" || name == "GPU" || name == "ANE":
		case strings.HasSuffix(name, "-Cluster"):
			// Older macOS prints each CPU cluster's power and no total.
			part = "cpu-clusters"
		default:
			continue // DRAM, Package, Clusters Total: not summed
		}
		mw, unit, _ := strings.Cut(strings.TrimSpace(v), " ")
		f, err := strconv.ParseFloat(mw, 64)
		if err != nil || unit != "mW" || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("powermetrics: %q", quoteLine(line))
		}
		if part == "cpu-clusters" {
			w[part] += f / 1000
		} else {
			w[part] = f / 1000
		}
	}
	for _, s := range out {
		if c, ok := s.Watts["cpu-clusters"]; ok {
			if _, total := s.Watts["cpu"]; !total {
				s.Watts["cpu"] = c
			}
			delete(s.Watts, "cpu-clusters")
		}
	}
	return out, nil
}

// PowermetricsEnergy is the energy of the window [from, to] from the
// samples that overlap it: a sample ending at At covers the Elapsed before
// it, and its parts' power counts for the time it shares with the window.
// The energy is that mean power over the whole window, so that the
// small gaps and overlaps between samples stamped on arrival neither lose
// nor count joules. It refuses fewer than MinEnergySamples samples, samples
// that cover less than 90% of the window (the sampler stopped), and
// samples that name no CPU, GPU or ANE power (an Intel Mac prints its
// package power in another form).
func PowermetricsEnergy(samples []PowermetricsSample, from, to time.Time) *schema.Energy {
	e := &schema.Energy{Source: schema.EnergyPowermetrics, MinSamples: MinEnergySamples, WindowS: to.Sub(from).Seconds()}
	covered := map[string]bool{}
	var elapsed, overlap time.Duration
	for _, s := range samples {
		start := s.At.Add(-s.Elapsed)
		o := minTime(s.At, to).Sub(maxTime(start, from))
		if s.Elapsed <= 0 || o <= 0 {
			continue
		}
		e.Samples++
		elapsed += s.Elapsed
		overlap += o
		for part, w := range s.Watts {
			e.Joules += w * o.Seconds()
			covered[part] = true
		}
	}
	if e.Samples < MinEnergySamples {
		return &schema.Energy{Unavailable: fmt.Sprintf("only %d powermetrics sample(s) inside the %.2fs window (at least %d needed)", e.Samples, e.WindowS, MinEnergySamples)}
	}
	if window := to.Sub(from); overlap < window*9/10 {
		return &schema.Energy{Unavailable: fmt.Sprintf("powermetrics' %d samples cover %.2fs of the %.2fs window", e.Samples, overlap.Seconds(), e.WindowS)}
	}
	e.Joules *= to.Sub(from).Seconds() / overlap.Seconds()
	e.IntervalS = math.Round(elapsed.Seconds()/float64(e.Samples)*1000) / 1000
	for _, c := range []string{"cpu", "gpu", "ane"} {
		if covered[c] {
			e.Coverage = append(e.Coverage, c)
		}
	}
	if len(e.Coverage) == 0 {
		return &schema.Energy{Unavailable: "powermetrics printed no CPU, GPU or ANE power (\"CPU Power: N mW\")"}
	}
	return e
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

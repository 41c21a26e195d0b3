package review

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// conditions lists every difference in the conditions of measurement.
func conditions(oldPath string, old *schema.Record, newPath string, nu *schema.Record) []Condition {
	var out []Condition
	add := func(what, a, b string) {
		if a != b {
			out = append(out, Condition{What: what, Old: a, New: b})
		}
	}
	add("verdict", string(old.Verdict), string(nu.Verdict))
	add("baseline (each arm's ratio is to it)", old.Scenario.Baseline, nu.Scenario.Baseline)
	add("primary metric", old.Scenario.Primary, nu.Scenario.Primary)
	add("hardware slug", old.Hardware, nu.Hardware)
	mo, mn := old.Machine, nu.Machine
	add("CPU", mo.CPUModel, mn.CPUModel)
	add("cores / threads", fmt.Sprintf("%d / %d", mo.Cores, mo.Threads), fmt.Sprintf("%d / %d", mn.Cores, mn.Threads))
	add("memory", fmt.Sprint(mo.MemoryBytes), fmt.Sprint(mn.MemoryBytes))
	add("GPUs", gpus(mo), gpus(mn))
	add("OS", fmt.Sprintf("%s %s %s, kernel %s, %s", mo.OS, mo.Platform, mo.PlatformVersion, mo.Kernel, mo.Arch), fmt.Sprintf("%s %s %s, kernel %s, %s", mn.OS, mn.Platform, mn.PlatformVersion, mn.Kernel, mn.Arch))
	add("host", mo.Hostname, mn.Hostname)
	models := map[string][2]string{}
	loaded := loadedChanges(old, nu, add)
	for _, pair := range enginePairs(old, nu) {
		eo, en, of := pair.old, pair.nu, pair.of
		// The binary that runs: a wrapper script's own hash says only
		// where it was installed, so the binary it wraps is compared
		// when a record names one.
		add("engine binary sha256"+of, engineBinarySHA(eo), engineBinarySHA(en))
		if len(eo.Libraries) > 0 && len(en.Libraries) > 0 && !loaded {
			add("engine libraries"+of, libraryChanges(eo.Libraries, en.Libraries, false), libraryChanges(eo.Libraries, en.Libraries, true))
		}
		add("engine version"+of, eo.Version, en.Version)
		add("engine source commit"+of, eo.SourceCommit, en.SourceCommit)
		add("engine source dirty"+of, dirty(eo.SourceDirty), dirty(en.SourceDirty))
		for _, m := range eo.Models {
			v := models[filepath.Base(m.Arg)]
			v[0] = m.SHA256
			models[filepath.Base(m.Arg)] = v
		}
		for _, m := range en.Models {
			v := models[filepath.Base(m.Arg)]
			v[1] = m.SHA256
			models[filepath.Base(m.Arg)] = v
		}
	}
	var names []string
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add("model file "+n+" sha256", abbrev.Hash(models[n][0]), abbrev.Hash(models[n][1]))
	}
	add("decodebench", old.Method.Version+" "+old.Method.Commit, nu.Method.Version+" "+nu.Method.Commit)
	add("scenario hash", abbrev.Hash(old.Scenario.Hash), abbrev.Hash(nu.Scenario.Hash))
	if old.Scenario.Hash != nu.Scenario.Hash {
		for _, c := range scenarioDiff(oldPath, old, newPath, nu) {
			out = append(out, c)
		}
	}
	om, nm := old.Method, nu.Method
	add("gates", gates(om), gates(nm))
	add("statistics", fmt.Sprintf("confidence %g, alpha %g, min_effect %g", om.Confidence, om.Alpha, om.MinEffect), fmt.Sprintf("confidence %g, alpha %g, min_effect %g", nm.Confidence, nm.Alpha, nm.MinEffect))
	add("rounds run", fmt.Sprint(om.RoundsRun), fmt.Sprint(nm.RoundsRun))
	if om.Requests > 0 && nm.Requests > 0 {
		add("measured requests per engine start", fmt.Sprint(om.Requests), fmt.Sprint(nm.Requests))
	}
	if len(om.PrefixCache) > 0 && len(nm.PrefixCache) > 0 {
		add("prefix cache", prefixCaches(om), prefixCaches(nm))
	}
	// The host's load, and beside it the share of runs it contended: a
	// busy host that every run of one record shared is a condition even
	// where the load averages are close.
	lo, ln := loadLevel(old), loadLevel(nu)
	co, to := contended(old)
	cn, tn := contended(nu)
	if math.Abs(lo-ln) >= 0.5 || share(co, to) != share(cn, tn) {
		out = append(out, Condition{What: "median load average (1 min)", Old: fmt.Sprintf("%.2f", lo), New: fmt.Sprintf("%.2f", ln)},
			Condition{What: "contended runs", Old: contendedText(co, to), New: contendedText(cn, tn)})
	}
	return out
}

// contended counts a record's finished runs and those marked contended.
func contended(r *schema.Record) (n, of int) {
	for i, run := range r.Runs {
		if !run.OK() {
			continue
		}
		of++
		if i < len(r.Analysis.Marks) && r.Analysis.Marks[i].Contended {
			n++
		}
	}
	return n, of
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

func contendedText(n, of int) string {
	return fmt.Sprintf("%d of %d (%s)", n, of, pct.Share(n, of))
}

func gpus(m schema.MachineInfo) string {
	var out []string
	for _, g := range m.GPUs {
		out = append(out, g.Name+" ("+g.Driver+")")
	}
	return strings.Join(out, ", ")
}

func dirty(b *bool) string {
	if b == nil {
		return ""
	}
	return fmt.Sprint(*b)
}

func gates(m schema.Method) string {
	return fmt.Sprintf("max_spread %g, max_contended %g, contended_cpu %g, max_drift %g", m.MaxSpread, m.MaxContended, m.ContendedCPU, m.MaxDrift)
}

func loadLevel(r *schema.Record) float64 {
	var xs []float64
	for _, run := range r.Runs {
		if run.LoadBefore != nil {
			xs = append(xs, run.LoadBefore.Load1)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return stats.Summarize(xs).Median
}

// scenarioDiff compares the two stored scenarios as YAML values: every key
// whose value differs, by its path (comments and formatting do not count).
func scenarioDiff(oldPath string, old *schema.Record, newPath string, nu *schema.Record) []Condition {
	read := func(path string, rec *schema.Record) []byte {
		b, _ := recorder.ReadDataFile(path, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
		return b
	}
	a, b := read(oldPath, old), read(newPath, nu)
	if a == nil || b == nil {
		return nil
	}
	changes, err := scenarios.DiffYAML(a, b)
	if err != nil {
		return []Condition{{What: "scenario", Old: "(not comparable)", New: err.Error()}}
	}
	var out []Condition
	for _, c := range changes {
		out = append(out, Condition{What: c.Path, Old: c.Old, New: c.New})
	}
	return out
}

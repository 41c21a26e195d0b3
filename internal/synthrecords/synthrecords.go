// Package synthrecords writes histories of records for benchmarks and
// tests: copies of a real record, each dated, named and placed like a
// record that decodebench run wrote, with its runs optionally scaled
// (a planted step, seeded noise), re-analysed and re-rendered, so every
// one passes decodebench check. Files the copies share with the source
// (scenario, logs, plots) are copied into the first record's data folder;
// with Spec.Link the later records hard-link to those copies (never to the
// source's files), where the file system allows.
package synthrecords

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"golang.org/x/sys/unix"
)

// Spec says what to generate.
type Spec struct {
	Source string // a record file whose runs and data folder are copied
	Dir    string // the records folder written into
	N      int
	// Start is the first record's date (and time of day, which shifts its
	// runs); PerDay records share a date (named -2, -3, … like run names
	// them), an hour apart. PerDay 0 means 1.
	Start  time.Time
	PerDay int
	// Hardware, when set, gives record i the slug Hardware[i%len].
	Hardware []string
	// Scale, when set, multiplies record i's primary metric: the
	// baseline's runs by base, every other arm's by arm.
	Scale func(i int) (base, arm float64)
	// Noise is the relative standard deviation of seeded per-record
	// noise on every run's primary metric (0: none).
	Noise float64
	Seed  uint64
	// Engine, when set, gives record i its engine version and source
	// commit.
	Engine func(i int) (version, commit string)
	// Link makes records after the first share the first one's unchanged
	// data files through hard links: fast and small, but a change to
	// one such file changes them all.
	Link bool
	// Rule, when set, is the statistical rule the records are analysed
	// and rendered under (the source's otherwise).
	Rule schema.Rule
	// Mutate, when set, changes record i before it is analysed and
	// rendered (its machine, say, for a record of simulated hardware).
	Mutate func(i int, rec *schema.Record)
}

// Generate writes Spec.N records and returns their paths in order.
func Generate(spec Spec) ([]string, error) {
	src, err := recorder.Load(spec.Source)
	if err != nil {
		return nil, err
	}
	srcData, err := recorder.DataPath(spec.Source, src)
	if err != nil {
		return nil, err
	}
	scenarioBytes, err := os.ReadFile(filepath.Join(srcData, recorder.ScenarioFile))
	if err != nil {
		return nil, err
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, srcData, scenarioBytes, scenarios.Options{Offline: true, PromptText: src.Scenario.Request.Prompt, Set: src.Scenario.Overrides})
	if err != nil {
		return nil, fmt.Errorf("%s: stored scenario: %w", spec.Source, err)
	}
	perDay := max(spec.PerDay, 1)
	rng := rand.New(rand.NewPCG(spec.Seed, 0x5eed))
	if err := os.MkdirAll(filepath.Join(spec.Dir, "data"), 0o755); err != nil {
		return nil, err
	}
	srcDay, err := time.Parse("2006-01-02", src.Date)
	if err != nil {
		return nil, err
	}
	// The analysis depends on the runs' metrics and on their times only
	// relative to the campaign's start, so records with the same scaling
	// and no noise share one.
	type analysed struct {
		a schema.Analysis
		v schema.Verdict
	}
	memo := map[[2]float64]analysed{}
	var out []string
	var firstData string
	for i := range spec.N {
		day := spec.Start.AddDate(0, 0, i/perDay)
		rec := *src
		rec.Date = day.Format("2006-01-02")
		if len(spec.Hardware) > 0 {
			rec.Hardware = spec.Hardware[i%len(spec.Hardware)]
			rec.Machine.Slug = rec.Hardware
		}
		stem := recorder.Stem{Feature: rec.Feature, Hardware: rec.Hardware, Date: rec.Date, N: i%perDay + 1}.String()
		rec.DataDir = "data/" + stem
		// Records of one day start an hour apart: each is a campaign of
		// its own (history and the index count one campaign once, by its
		// start and its runs' starts).
		shift := day.Sub(srcDay) + time.Duration(i%perDay)*time.Hour
		rec.Method.Started = src.Method.Started.Add(shift)
		rec.Method.Finished = src.Method.Finished.Add(shift)
		if spec.Rule != "" {
			rec.Method.Rule = spec.Rule
		}
		if spec.Engine != nil {
			rec.Engine.Version, rec.Engine.SourceCommit = spec.Engine(i)
		}
		base, arm := 1.0, 1.0
		if spec.Scale != nil {
			base, arm = spec.Scale(i)
		}
		rec.Runs = make([]schema.Run, len(src.Runs))
		for j, r := range src.Runs {
			r.Start = r.Start.Add(shift)
			// A record of its own measured its own runs: their wall times
			// differ from the source's in the last bits (history.Campaign
			// knows a copy by its runs' values), by less than any record
			// shows.
			r.Seconds += shift.Seconds() * 1e-12
			if r.LoadBefore != nil {
				lb := *r.LoadBefore
				lb.Time = lb.Time.Add(shift)
				r.LoadBefore = &lb
			}
			if r.LoadAfter != nil {
				la := *r.LoadAfter
				la.Time = la.Time.Add(shift)
				r.LoadAfter = &la
			}
			if v, ok := r.Metrics[src.Scenario.Primary]; ok {
				f := arm
				if r.Arm == src.Scenario.Baseline {
					f = base
				}
				if spec.Noise > 0 {
					f *= 1 + spec.Noise*rng.NormFloat64()
				}
				m := make(map[string]float64, len(r.Metrics))
				for k, x := range r.Metrics {
					m[k] = x
				}
				m[src.Scenario.Primary] = v * f
				r.Metrics = m
			}
			rec.Runs[j] = r
		}
		if spec.Mutate != nil {
			spec.Mutate(i, &rec)
		}
		key := [2]float64{base, arm}
		if got, ok := memo[key]; ok && spec.Noise == 0 && spec.Mutate == nil {
			rec.Analysis, rec.Verdict = got.a, got.v
		} else {
			a, verdict, err := analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
			if err != nil {
				return nil, err
			}
			rec.Analysis, rec.Verdict = a, verdict
			memo[key] = analysed{rec.Analysis, rec.Verdict}
		}
		from := srcData
		if spec.Link && len(out) > 0 {
			from = firstData
		}
		path, err := write(spec.Dir, stem, from, srcData, &rec, from != srcData, shift)
		if err != nil {
			return out, err
		}
		if len(out) == 0 {
			firstData = filepath.Join(spec.Dir, filepath.FromSlash(rec.DataDir))
		}
		out = append(out, path)
	}
	return out, nil
}

// write places the record's data folder (runs.jsonl written, the
// source's logs, in srcLogs/logs, written with their marker lines' times
// shifted as the runs' are, the other files and the campaign state
// copied, or linked, from srcData's) and renders the record.
func write(dir, stem, srcData, srcLogs string, rec *schema.Record, link bool, shift time.Duration) (string, error) {
	dataDir := filepath.Join(dir, filepath.FromSlash(rec.DataDir))
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return "", err
	}
	var runs bytes.Buffer
	for _, r := range rec.Runs {
		b, err := json.Marshal(r)
		if err != nil {
			return "", err
		}
		runs.Write(b)
		runs.WriteByte('\n')
	}
	files := make([]schema.FileSum, len(rec.Files))
	for i, f := range rec.Files {
		dst := filepath.Join(dataDir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		files[i] = f
		if f.Path == recorder.RunsFile {
			if err := safefs.WriteFile(dst, runs.Bytes(), 0o644); err != nil {
				return "", err
			}
			files[i].SHA256, _ = recorder.HashFile(dst)
			continue
		}
		if strings.HasPrefix(f.Path, "logs/") {
			b, err := os.ReadFile(filepath.Join(srcLogs, filepath.FromSlash(f.Path)))
			if err != nil {
				return "", err
			}
			_ = os.Remove(dst)
			if err := safefs.WriteFile(dst, shiftMarkers(b, shift), 0o644); err != nil {
				return "", err
			}
			files[i].SHA256, _ = recorder.HashFile(dst)
			continue
		}
		if err := place(filepath.Join(srcData, filepath.FromSlash(f.Path)), dst, link); err != nil {
			return "", err
		}
	}
	rec.Files = files
	// The campaign state, which the harness writes beside the runs.
	if err := place(filepath.Join(srcData, "campaign.json"), filepath.Join(dataDir, "campaign.json"), link); err != nil {
		return "", err
	}
	path := filepath.Join(dir, stem+".md")
	return path, recorder.WriteFile(path, rec)
}

func place(src, dst string, link bool) error {
	_ = os.Remove(dst)
	if link && os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	// Create-exclusive, never through a link: the name was just freed.
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// shiftMarkers is a run's log with the time of each of decodebench's
// marker lines moved by d: check holds a run's start to its log's
// markers, and a copy's runs start later than the source's (the copies'
// logs differ from the source's, as two campaigns' logs do). The
// fraction of a second is kept, so each line keeps its length.
func shiftMarkers(b []byte, d time.Duration) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, engine.MarkerPrefix)
		if !ok {
			continue
		}
		when, text, found := strings.Cut(rest, " ")
		t, err := time.Parse(time.RFC3339Nano, when)
		if err != nil || !found {
			continue
		}
		lines[i] = engine.MarkerPrefix + t.Add(d).UTC().Format(time.RFC3339Nano) + " " + text
	}
	return []byte(strings.Join(lines, ""))
}

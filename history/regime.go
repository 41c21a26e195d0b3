package history

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/roofline"
	"github.com/decodebench/decodebench/schema"
)

// A regime table is one scenario of a feature (by its hash) across
// hardware: per hardware slug, its latest VALID record's ratio per arm with
// its interval, and what the hardware was (GPU, power mode, engine build,
// the share of the hardware's limit). Where two hardware's intervals for
// one arm exclude each other and the effect differs past min_effect, the
// result depends on the regime (Split): a number without its hardware
// would be misread.

// RegimeTable is one scenario of a feature across hardware.
type RegimeTable struct {
	Feature      string `json:"feature"`
	ScenarioHash string `json:"scenario_hash"`
	Baseline     string `json:"baseline"`
	Metric       string `json:"metric"`
	// MinEffect is the largest min_effect of the rows' records: an effect
	// that differs by less is not a different result.
	MinEffect float64 `json:"min_effect"`
	// Arms are the compared arms, in the order the records list them.
	Arms []string    `json:"arms"`
	Rows []RegimeRow `json:"rows"`
	// Splits are the pairs of hardware whose results differ; Dependent is
	// set when there is one.
	Splits    []Split `json:"splits,omitempty"`
	Dependent bool    `json:"regime_dependent"`
}

// RegimeRow is one hardware's latest VALID record of the scenario.
type RegimeRow struct {
	Hardware string `json:"hardware"`
	// Record is the hardware's latest VALID record; "" when it has none,
	// and Verdict is then its latest record's.
	Record  string         `json:"record,omitempty"`
	Date    string         `json:"date,omitempty"`
	Verdict schema.Verdict `json:"verdict"`
	// Newer is the hardware's newest record where it is newer than Record
	// (and so not VALID).
	Newer *RecordRef `json:"newer,omitempty"`
	// Records counts the hardware's records of the scenario.
	Records int `json:"records"`
	// CPU is the machine's processor; GPU its accelerators as their
	// driver names them, or the Apple chip; GPUGeneration and
	// GPUArchitecture the Apple GPU's, where the record knows them.
	CPU             string `json:"cpu,omitempty"`
	GPU             string `json:"gpu,omitempty"`
	GPUGeneration   int    `json:"gpu_generation,omitempty"`
	GPUArchitecture string `json:"gpu_architecture,omitempty"`
	// PowerMode is macOS's energy mode before the campaign, where read.
	PowerMode string `json:"power_mode,omitempty"`
	// Engine is the engine build (its version's first line), per arm
	// where the arms ran several; EngineSHA256 the baseline's binary.
	Engine       string               `json:"engine"`
	EngineSHA256 string               `json:"engine_sha256,omitempty"`
	Arms         []RegimeArm          `json:"arms,omitempty"`
	Roofline     []schema.ArmRoofline `json:"roofline,omitempty"`
	// Drafts are the arms whose command line drafts (a draft model, or a
	// speculation type): their share is effective, several tokens a read
	// of the weights.
	Drafts []string `json:"drafts,omitempty"`
}

// RecordRef names a record.
type RecordRef struct {
	Record  string         `json:"record"`
	Date    string         `json:"date"`
	Verdict schema.Verdict `json:"verdict"`
}

// RegimeArm is one arm's primary ratio to the baseline in a row.
type RegimeArm struct {
	Arm         string  `json:"arm"`
	Control     bool    `json:"control,omitempty"`
	Ratio       float64 `json:"ratio"`
	Lo          float64 `json:"lo,omitempty"`
	Hi          float64 `json:"hi,omitempty"`
	Confidence  float64 `json:"confidence,omitempty"`
	Significant bool    `json:"significant"`
}

// SplitKind says how an effect differs between two hardware.
type SplitKind string

// An effect that is a gain on one hardware and a loss on the other, or of
// one sign but of another size.
const (
	SplitSign SplitKind = "sign"
	SplitSize SplitKind = "size"
)

// Split is an arm whose results on two hardware exclude each other: their
// intervals do not overlap, and the larger ratio is at least MinEffect
// above the smaller (max/min − 1 ≥ min_effect).
type Split struct {
	Arm  string    `json:"arm"`
	Kind SplitKind `json:"kind"`
	A    RegimeArm `json:"a"`
	B    RegimeArm `json:"b"`
	// HardwareA and HardwareB are the rows' hardware.
	HardwareA string `json:"hardware_a"`
	HardwareB string `json:"hardware_b"`
}

// Regimes are feature's regime tables, one per scenario meaning, the one
// with the most hardware first (then the newest). Records whose verdict is
// not VALID count for a row's Newer and Records only.
func Regimes(recs []Record, feature string) []RegimeTable {
	byHash := map[string][]Record{}
	var hashes []string
	for _, r := range recs {
		if r.Rec.Feature != feature {
			continue
		}
		h := r.Rec.Scenario.Hash
		if _, ok := byHash[h]; !ok {
			hashes = append(hashes, h)
		}
		byHash[h] = append(byHash[h], r)
	}
	var out []RegimeTable
	newest := map[string]string{}
	for _, h := range hashes {
		t := regime(feature, h, byHash[h])
		out = append(out, t)
		for _, r := range byHash[h] {
			newest[h] = max(newest[h], r.Rec.Date)
		}
	}
	slices.SortStableFunc(out, func(a, b RegimeTable) int {
		return cmp.Or(-cmp.Compare(len(a.Rows), len(b.Rows)), -cmp.Compare(newest[a.ScenarioHash], newest[b.ScenarioHash]), cmp.Compare(a.ScenarioHash, b.ScenarioHash))
	})
	return out
}

// regime is the table of one scenario's records.
func regime(feature, hash string, recs []Record) RegimeTable {
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(a, b Record) int { // newest first
		return cmp.Or(cmp.Compare(a.Rec.Hardware, b.Rec.Hardware), -cmp.Compare(a.Rec.Date, b.Rec.Date), -cmp.Compare(a.Seq, b.Seq),
			b.Rec.Method.Started.Compare(a.Rec.Method.Started), cmp.Compare(a.Stem, b.Stem))
	})
	t := RegimeTable{Feature: feature, ScenarioHash: hash}
	for i := 0; i < len(sorted); {
		hw := sorted[i].Rec.Hardware
		j := i
		for j < len(sorted) && sorted[j].Rec.Hardware == hw {
			j++
		}
		row, valid := regimeRow(sorted[i:j])
		if valid != nil {
			if t.Baseline == "" {
				t.Baseline, t.Metric = valid.Scenario.Baseline, valid.Scenario.Primary
			}
			t.MinEffect = max(t.MinEffect, valid.Method.MinEffect)
			for _, a := range row.Arms {
				if !slices.Contains(t.Arms, a.Arm) {
					t.Arms = append(t.Arms, a.Arm)
				}
			}
		}
		t.Rows = append(t.Rows, row)
		i = j
	}
	if t.Baseline == "" && len(sorted) > 0 {
		t.Baseline, t.Metric = sorted[0].Rec.Scenario.Baseline, sorted[0].Rec.Scenario.Primary
	}
	t.Splits = splits(t)
	t.Dependent = len(t.Splits) > 0
	return t
}

// regimeRow is one hardware's row from its records, newest first, and the
// record it stands on (nil when none is VALID).
func regimeRow(recs []Record) (RegimeRow, *schema.Record) {
	latest := recs[0]
	row := RegimeRow{Hardware: latest.Rec.Hardware, Records: len(recs), Verdict: latest.Rec.Verdict}
	i := slices.IndexFunc(recs, func(r Record) bool { return r.Rec.Verdict == schema.Valid })
	if i < 0 {
		row.Newer = &RecordRef{Record: latest.Stem, Date: latest.Rec.Date, Verdict: latest.Rec.Verdict}
		machineOf(&row, latest.Rec)
		return row, nil
	}
	r := recs[i]
	if i > 0 {
		row.Newer = &RecordRef{Record: latest.Stem, Date: latest.Rec.Date, Verdict: latest.Rec.Verdict}
	}
	rec := r.Rec
	row.Record, row.Date, row.Verdict = r.Stem, rec.Date, rec.Verdict
	machineOf(&row, rec)
	control := map[string]bool{}
	for _, a := range rec.Scenario.Arms {
		control[a.Name] = a.Control
	}
	for _, v := range rec.Analysis.ArmVerdicts {
		c := v.Comparison
		if !c.Defined() {
			continue
		}
		row.Arms = append(row.Arms, RegimeArm{Arm: v.Arm, Control: v.Control || control[v.Arm], Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi,
			Confidence: c.Confidence, Significant: c.Significant})
	}
	row.Roofline = rec.Roofline
	for _, a := range rec.Scenario.Arms {
		if roofline.ParseCommand(a.Command).Drafts {
			row.Drafts = append(row.Drafts, a.Name)
		}
	}
	return row, rec
}

// machineOf fills a row's machine and engine from its record.
func machineOf(row *RegimeRow, rec *schema.Record) {
	m := rec.Machine
	row.CPU = m.CPUModel
	var gpus []string
	for _, g := range m.GPUs {
		if !slices.Contains(gpus, g.Name) {
			gpus = append(gpus, g.Name)
		}
	}
	row.GPU = strings.Join(gpus, ", ")
	if p := m.Telemetry; p != nil {
		if p.GPUGeneration > 0 || p.GPUArchitecture != "" {
			row.GPU = cmp.Or(row.GPU, p.Chip)
			row.GPUGeneration, row.GPUArchitecture = p.GPUGeneration, p.GPUArchitecture
		}
		if p.Conditions != nil {
			row.PowerMode = p.Conditions.PowerMode
		}
	}
	base := rec.EngineOf(rec.Scenario.Baseline)
	row.Engine, row.EngineSHA256 = firstLine(base.Version), base.SHA256
	if len(rec.Engines) > 0 {
		var parts []string
		for _, e := range rec.Engines {
			parts = append(parts, strings.Join(e.Arms, ", ")+": "+firstLine(e.Version))
		}
		row.Engine = strings.Join(parts, "; ")
	}
}

// splits are the arms whose results on two hardware exclude each other.
func splits(t RegimeTable) []Split {
	var out []Split
	for _, arm := range t.Arms {
		for i, a := range t.Rows {
			for _, b := range t.Rows[i+1:] {
				x, okA := armOf(a, arm)
				y, okB := armOf(b, arm)
				if !okA || !okB || x.Control || y.Control || !separate(x, y, t.MinEffect) {
					continue
				}
				kind := SplitSize
				if (x.Ratio-1)*(y.Ratio-1) < 0 {
					kind = SplitSign
				}
				out = append(out, Split{Arm: arm, Kind: kind, A: x, B: y, HardwareA: a.Hardware, HardwareB: b.Hardware})
			}
		}
	}
	return out
}

func armOf(r RegimeRow, arm string) (RegimeArm, bool) {
	for _, a := range r.Arms {
		if a.Arm == arm {
			return a, true
		}
	}
	return RegimeArm{}, false
}

// separate reports whether two results of an arm exclude each other: both
// have an interval, the intervals do not overlap, and the larger ratio is
// at least minEffect above the smaller.
func separate(x, y RegimeArm, minEffect float64) bool {
	if x.Lo == 0 && x.Hi == 0 || y.Lo == 0 && y.Hi == 0 || x.Ratio <= 0 || y.Ratio <= 0 {
		return false
	}
	if !(x.Hi < y.Lo || y.Hi < x.Lo) {
		return false
	}
	return math.Max(x.Ratio, y.Ratio)/math.Min(x.Ratio, y.Ratio)-1 >= minEffect
}

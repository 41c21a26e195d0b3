package recorder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func TestHostColumnsOnlyWhenPresent(t *testing.T) {
	var plain bytes.Buffer
	Markdown(&plain, fixedRecord(schema.Inconclusive))
	for _, h := range []string{"quiet wait", "thermal before", "busiest other", "decodebench CPU", "GPU SM"} {
		if strings.Contains(plain.String(), h) {
			t.Errorf("record without host readings has a %q column", h)
		}
	}

	rec := fixedRecord(schema.Inconclusive)
	lvl, lim := 2, 60
	sm, temp, w := 1980.0, 44.0, 120.0
	rec.Runs[0].Quiet = &schema.QuietWait{WaitedS: 31.5, EndedBy: "quiet", Held: map[string]int{"denied_process": 3}, Culprits: []schema.HostProcess{{PID: 77, Name: "cc1plus", Reason: "denied_process"}}}
	rec.Runs[1].Quiet = &schema.QuietWait{WaitedS: 600, EndedBy: schema.QuietMaxWait, OnBusy: "mark"}
	rec.Runs[1].Cooldown = &schema.CooldownWait{Mode: "until_quiet", WaitedS: 5.1, EndedBy: "settled"}
	rec.Runs[2].ConditionsBefore = &schema.HostConditions{ThermalWarningLevel: &lvl, CPUSpeedLimit: &lim, Power: "battery",
		GPUs:     []schema.GPUState{{Index: 0, SMClockMHz: &sm, TempC: &temp, PowerW: &w, Reasons: []string{"sw_thermal_slowdown"}}},
		Warnings: []schema.HostWarning{{Code: "on_battery"}, {Code: "thermal_warning", Value: "thermal=2"}}}
	rec.Runs[3].Contention.Culprit = &schema.HostProcess{PID: 99, Name: "stress|ng", Cores: 0.93}
	rec.Runs[3].Footprint = &schema.Footprint{CPUS: 0.001, WindowS: 0.8}
	rec.Method.Quiet = "window 30s"
	rec.Method.Footprint = &schema.Footprint{CPUS: 0.002, WindowS: 3.2}
	rec.Machine.Telemetry = &schema.PlatformInfo{Chip: "Apple M5 Max", GPUGeneration: 17, GPUArchitecture: "applegpu_g17s", Unavailable: []string{"nvidia-smi: not installed"}}
	rec.Analysis, rec.Verdict = analyze(fixedPolicy(t), rec.Runs, rec.Method, rec.Schema)
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"| quiet wait |", `31.5s quiet; denied\_process×3; cc1plus (77)`, `600s max\_wait, mark`,
		"| cooldown ended by |", "settled", "| busiest other process |", `stress\|ng (99) 93.00% of a core`,
		"level 2 CPU limit 60% battery→—", `1980/44.0/120 sw\_thermal\_slowdown→—`,
		"| decodebench CPU in window |", "0.12%",
		"| Apple GPU generation | 17 (`applegpu_g17s`) |", "nvidia-smi: not installed",
		"Quiet gate before every run: window 30s.", "of one core",
		"On battery: the machine ran on battery power around 1 of 4", "Thermal warning:",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q\n%s", want, md[strings.Index(md, "## Raw runs"):])
		}
	}
	// Every row has as many cells as the header.
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| 1 | 1 | `classic` | 14:") {
			head := ""
			for _, h := range strings.Split(md, "\n") {
				if strings.HasPrefix(h, "| Run | Round |") {
					head = h
				}
			}
			if n, m := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"), strings.Count(head, "|"); n != m {
				t.Errorf("row has %d cell borders, header %d:\n%s\n%s", n, m, head, l)
			}
		}
	}
}

func TestQuietMarkCountsAsContended(t *testing.T) {
	rec := fixedRecord(schema.Inconclusive)
	rec.Runs[1].Quiet = &schema.QuietWait{EndedBy: schema.QuietMaxWait, OnBusy: "mark"}
	in, _ := analysis.FromRecord(fixedPolicy(t), rec.Runs, rec.Method)
	if !in.Runs[1].QuietTimedOut || !in.Runs[1].HostBusy || in.Runs[0].HostBusy {
		t.Fatalf("analysis input: %+v", in.Runs[1])
	}
	a := analysis.Analyze(in)
	if !a.Marks[1].Contended {
		t.Error("a run the quiet gate marked busy is not contended")
	}
}

func fixedPolicy(t *testing.T) scenarios.Policy {
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(fixedScenario), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return s.Policy
}

// A Mac record names the GPU's generation with where it came from, the
// energy mode around each run, and warns when the mode changed mid-campaign
// (Automatic to High Power moved a peer's decode from about 90 to 60 tok/s).
func TestMacRegimeRecord(t *testing.T) {
	rec := fixedRecord(schema.Valid)
	rec.Machine.Telemetry = &schema.PlatformInfo{Chip: "Apple M3 Pro", GPUGeneration: 15, GPUArchitecture: "applegpu_g15s", GPUGenerationSource: "ioreg", GPUClass: "AGXG15SDevice",
		Conditions: &schema.HostConditions{Power: "ac", PowerMode: "automatic"}}
	for i := range rec.Runs {
		mode := "automatic"
		if i >= 2 {
			mode = "high power"
		}
		rec.Runs[i].ConditionsBefore = &schema.HostConditions{Power: "ac", PowerMode: mode}
	}
	rec.Analysis, rec.Verdict = analyze(fixedPolicy(t), rec.Runs, rec.Method, rec.Schema)
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"| Apple GPU generation | 15 (`applegpu_g15s`), read from the GPU's accelerator class `AGXG15SDevice` (ioreg) |",
		"power mode automatic",
		"Power mode changed during the campaign: macOS's energy mode was automatic, then high power around different runs",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	rec.Machine.Telemetry = &schema.PlatformInfo{Chip: "Apple M4 Pro", GPUGeneration: 16, GPUGenerationSource: "chip"}
	buf.Reset()
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| Apple GPU generation | 16 (—), inferred from the chip's name (fallback") {
		t.Error("a generation inferred from the chip name does not say so")
	}
}

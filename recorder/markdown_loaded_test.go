package recorder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// What the arms loaded, their roofline and their two clocks are rendered,
// and the data block carries them back.
func TestLoadedRooflineAndClocksRendered(t *testing.T) {
	rec := fixedRecord(schema.Valid)
	rec.Loaded = []schema.ArmsLoaded{
		{Arms: []string{"classic"}, Libraries: []schema.FileSum{{Path: "/opt/lib/libc.so.6", SHA256: "c6"}, {Path: "/opt/lib/libggml-cpu-zen4.so", SHA256: "zz"}}},
		{Arms: []string{"draft"}, Libraries: []schema.FileSum{{Path: "/opt/lib/libc.so.6", SHA256: "c6"}, {Path: "/opt/lib/libggml-cuda.so", SHA256: "cu"}}},
	}
	rec.Roofline = []schema.ArmRoofline{
		{Arm: "classic", Share: 0.25, DecodeTokS: 100, Model: "t.gguf", Format: "gguf", BytesPerToken: 5e8, KVBytesPerToken: 1e6, Context: 70,
			BandwidthGBs: 200, Memory: "host memory", BandwidthSource: "measured: triad", BandwidthMeasured: true},
		{Arm: "draft", Share: 1.5, Effective: true, DecodeTokS: 600, Model: "t.gguf", Format: "gguf", BytesPerToken: 5e8,
			BandwidthGBs: 200, Memory: "NVIDIA H200", BandwidthSource: "https://www.nvidia.com/en-us/data-center/h200/", DraftModel: "d.gguf", DraftBytesPerToken: 6e7},
	}
	rec.Analysis.Clocks = []schema.ArmClocks{{Arm: "classic", ClientTokS: 100, EngineTokS: 99, Ratio: 1.01, RatioMin: 1, RatioMax: 1.02, Requests: 4, LagMS: 4}}
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"Loaded by `classic`:",
		"| Backend | `/opt/lib/libggml-cpu-zen4.so`, sha256 `zz` |",
		"The arms loaded different libraries: `classic` `libggml-cpu-zen4.so zz`; `draft` `libggml-cuda.so cu`.",
		"| `classic` | 100.0 | `t.gguf` (gguf) | 500000000 | 1000000 (context 70.00) | host memory | 200.0 | measured: triad | 25.0% |",
		"| `draft` | 600.0 | `t.gguf` (gguf) | 500000000 | — | NVIDIA H200 | 200.0 | table: https://www.nvidia.com/en-us/data-center/h200/ | 150.0% effective |",
		"the clock the verdict uses",
		"| `classic` | 4 | 100.0 | 99.00 | 1.010× | 1.000–1.020 | 4.00 ms |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("record lacks %q", want)
		}
	}
	if strings.Contains(md, "× the engine's own `predicted_per_second` (median over runs)") {
		t.Error("the old one-line clock check beside the clocks' table")
	}
	got, err := Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Loaded) != 2 || len(got.Roofline) != 2 || got.Roofline[1].Share != 1.5 || len(got.Analysis.Clocks) != 1 {
		t.Errorf("parsed back: %+v %+v %+v", got.Loaded, got.Roofline, got.Analysis.Clocks)
	}
}

package scenarios

import (
	"regexp"
	"strings"
	"testing"
)

// Every preset's starter scenario validates as written, with at most the
// warnings of this machine (an engine binary not installed here).
func TestStarterValidatesForEveryPreset(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			if _, ok := starterArms[p.Name]; !ok {
				t.Fatalf("no starter arms for preset %s", p.Name)
			}
			src, err := Starter(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			if i := strings.Index(string(src), "%!"); i >= 0 {
				t.Errorf("a formatting error in the starter: %q", src[max(0, i-40):min(len(src), i+20)])
			}
			s, warns, err := Parse("starter.yaml", t.TempDir(), src, Options{LookupEnv: noEnv})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if w := withoutLocalWarnings(warns.Error()); w != "" {
				t.Errorf("warnings: %s", w)
			}
			if s.Engine.Preset != p.Name || s.Engine.Ready.Path != p.ReadyPath || s.Engine.Request.Endpoint != p.Endpoint {
				t.Errorf("preset defaults not in force: %+v", s.Engine)
			}
			if len(p.Counters) > 0 && len(s.Distinguishing("speculative")) == 0 {
				t.Error("the preset's counters do not tell the arms apart")
			}
			if HeaderSummary(src) == "" || !strings.Contains(string(src), "# Run: ") {
				t.Error("no header comment")
			}
			if got, want := strings.Join(s.VersionCommand(), " "), strings.Join(p.VersionCommand, " "); got != want {
				t.Errorf("version command %q, want %q", got, want)
			}
		})
	}
	if _, err := Starter("nope"); err == nil || !strings.Contains(err.Error(), "llama.cpp") {
		t.Errorf("unknown preset: %v", err)
	}
}

// A preset's defaults give way to what the scenario writes.
func TestPresetFieldsOverridable(t *testing.T) {
	src, _ := Starter("vllm")
	src = []byte(strings.Replace(string(src), "  preset: vllm\n", "  preset: vllm\n  ready: {path: /v1/models}\n  metrics_path: /m\n", 1))
	src = regexp.MustCompile(`(?m)^  version_command: .*$`).ReplaceAll(src, []byte("  version_command: [vllm, --version]"))
	s, _, err := Parse("s.yaml", t.TempDir(), src, Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if s.Engine.Ready.Path != "/v1/models" || s.Engine.MetricsPath != "/m" || strings.Join(s.VersionCommand(), " ") != "vllm --version" {
		t.Errorf("overrides of the preset lost: %+v", s.Engine)
	}
	l, _, err := Load("llamacpp-speculative", Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if l.VersionCommand() != nil {
		t.Errorf("llama.cpp needs no version command beside --version: %v", l.VersionCommand())
	}
}

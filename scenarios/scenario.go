// Package scenarios defines the YAML scenario contract that drives a
// decodebench campaign, and loads, validates and resolves scenario files.
//
// A scenario names an engine command, the arms that change it, the schedule
// that interleaves them, and the counters that must prove each arm ran what
// it claims. Loading is strict: an unknown key, a wrong type or an
// inconsistent reference is an error that names file:line:column and the
// key, and every problem of a file is reported at once.
package scenarios

import (
	"fmt"
	"time"

	"github.com/decodebench/decodebench/schema"
	"gopkg.in/yaml.v3"
)

// Scenario is one decoded scenario file. Field names follow the YAML keys of
// the contract in the product brief; extend it, never rename.
type Scenario struct {
	Feature  string            `yaml:"feature" json:"feature"`
	Title    string            `yaml:"title" json:"title"`
	Issue    string            `yaml:"issue" json:"issue,omitempty"`
	Hardware string            `yaml:"hardware" json:"hardware,omitempty"`
	Vars     map[string]string `yaml:"vars" json:"vars,omitempty"`
	Engine   Engine            `yaml:"engine" json:"engine"`
	Arms     []Arm             `yaml:"arms" json:"arms"`
	Baseline string            `yaml:"baseline" json:"baseline"`
	Schedule Schedule          `yaml:"schedule" json:"schedule"`
	Counters []Counter         `yaml:"counters" json:"counters"`
	Metrics  Metrics           `yaml:"metrics" json:"metrics"`
	Stats    Stats             `yaml:"stats" json:"stats"`
	Gates    Gates             `yaml:"gates" json:"gates"`
	// Outliers is "flag" (default: mark them, keep them) or "drop".
	Outliers  schema.OutlierMode `yaml:"outliers" json:"outliers"`
	Exactness *Exactness         `yaml:"exactness" json:"exactness,omitempty"`
	// Host holds what decodebench may change on the machine for the
	// campaign, each opt-in.
	Host *Host `yaml:"host" json:"host,omitempty"`
	// OnFailure is what follows a failed run: "abort" (default),
	// "continue", or "retry:N" (run the same slot again up to N times).
	OnFailure schema.OnFailure `yaml:"on_failure" json:"on_failure"`
	// OnGateFailure is what follows a run that fails its counter
	// expectation: "stop" (default: the campaign is REJECTED whatever
	// follows, so it ends there, keeping the runs so far) or "continue"
	// (run the whole schedule, e.g. to see how often the gate fails).
	OnGateFailure   schema.GateFailure `yaml:"on_gate_failure" json:"on_gate_failure,omitempty"`
	Unmeasured      []Note             `yaml:"unmeasured" json:"unmeasured"`
	AllowUnverified string             `yaml:"allow_unverified" json:"allow_unverified,omitempty"`

	// Path is where the scenario came from: a file path, or
	// "embedded:NAME.yaml" for a scenario shipped inside the binary.
	Path string `yaml:"-" json:"-"`
	// Dir is the folder that relative paths in the scenario (prompt_file)
	// are resolved against.
	Dir string `yaml:"-" json:"-"`
	// Source is the file's bytes as read.
	Source []byte `yaml:"-" json:"-"`
	// Policy is every choice that decides what the runs mean, typed at
	// load.
	Policy Policy `yaml:"-" json:"-"`
	// Overrides lists the command-line overrides applied (Options.Set),
	// key=value each, in order; the record states them.
	Overrides []string `yaml:"-" json:"-"`
	pos       positions
	used      []KV
	// left are the variables an offline load left unresolved (VarsLeft).
	left    []string
	meaning string
	// unresolved is the scenario as decoded, before ${VAR}s are resolved
	// (unresolvedJSON), kept for a deferred prompt file's hash;
	// promptDeferred is set while that file is unread.
	unresolved     []byte
	promptDeferred bool
	// rawBins are the engine binaries as written (before ${VAR}s are
	// resolved), by key: engine.command[0], arms[N].engine.command[0].
	rawBins map[string]string
	// origin is where the scenario comes from for the user (Options.Origin).
	origin Origin
}

// Engine describes how to start the engine and talk to it.
type Engine struct {
	// Kind is server (default) or command (see EngineKind).
	Kind    EngineKind        `yaml:"kind" json:"kind,omitempty"`
	Preset  string            `yaml:"preset" json:"preset,omitempty"`
	Command []string          `yaml:"command" json:"command"`
	Env     map[string]string `yaml:"env" json:"env,omitempty"`
	// Source is an optional path to the engine's source checkout; its git
	// commit and dirty flag go into the record's engine identity.
	Source string `yaml:"source" json:"source,omitempty"`
	Ready  Ready  `yaml:"ready" json:"ready"`
	// Metrics is the path of the Prometheus endpoint (preset default).
	MetricsPath string   `yaml:"metrics_path" json:"metrics_path,omitempty"`
	StopGrace   Duration `yaml:"stop_grace" json:"stop_grace,omitempty"`
	Request     Request  `yaml:"request" json:"request"`
	// Decline is a regular expression for the engine's log lines that say
	// it declined the feature under test ("declined|falling back to
	// classic"): seen in the measured window of an arm expected to run it
	// (any arm but the baseline and negative controls), it fails the gate
	// with the line quoted.
	Decline string `yaml:"decline" json:"decline,omitempty"`
	// Output says how to read a command engine's results (kind: command).
	Output Output `yaml:"output" json:"output,omitempty"`
	// VersionCommand is a command whose output identifies the engine's
	// version when the binary's --version does not (a Python package:
	// [python3, -c, "import mlx_lm; print(mlx_lm.__version__)"]). The
	// preset's when left out; see (*Scenario).VersionCommand.
	VersionCommand []string `yaml:"version_command" json:"version_command,omitempty"`
	// AllowDirty is the reason to run although the source checkout
	// (Source) is dirty or newer than the binary; without it such an
	// engine is refused when the campaign starts.
	AllowDirty string `yaml:"allow_dirty" json:"allow_dirty,omitempty"`
	// SHA256 pins the engine binary: the sha256 the file its command
	// resolves to must have (a build's hash, taken when it was built),
	// else the campaign refuses to start. For a wrapper script whose
	// binary is identified (its decodebench-real-binary marker or its
	// exec line), it is that binary's hash: a pin of the wrapper's is
	// refused.
	SHA256 string `yaml:"sha256" json:"sha256,omitempty"`
}

// Ready says how to tell that a started engine can take requests.
type Ready struct {
	Path    string   `yaml:"path" json:"path"`
	Timeout Duration `yaml:"timeout" json:"timeout"`
}

// Request is the one request measured in every run.
type Request struct {
	Endpoint    string  `yaml:"endpoint" json:"endpoint"`
	Prompt      string  `yaml:"prompt" json:"prompt,omitempty"`
	PromptFile  string  `yaml:"prompt_file" json:"prompt_file,omitempty"`
	MaxTokens   int     `yaml:"max_tokens" json:"max_tokens"`
	Temperature float64 `yaml:"temperature" json:"temperature"`
	Seed        int     `yaml:"seed" json:"seed"`
	IgnoreEOS   bool    `yaml:"ignore_eos" json:"ignore_eos"`
	// Stop lists stop sequences passed to the engine.
	Stop    []string `yaml:"stop" json:"stop,omitempty"`
	Model   string   `yaml:"model" json:"model,omitempty"`
	Timeout Duration `yaml:"timeout" json:"timeout,omitempty"`
	// EventTimes timestamps every streamed token event as it arrives, for
	// inter-token latency percentiles and step_tok_s. Off, decodebench
	// wakes for the first token and the end of the stream only (time to
	// first token and the decode rate stay exact), which costs the engine
	// far less CPU. Naming a per-token metric turns it on.
	EventTimes bool `yaml:"event_times" json:"event_times,omitempty"`
	// PrefixCache says how every request keeps the engine from serving
	// its prompt from a prefix cache: disabled (per request, llama-server's
	// cache_prompt: false), distinct-prefix (a short prefix of its own per
	// request) or unknown; the default follows the engine family
	// (prefixcache.go).
	PrefixCache schema.PrefixCache `yaml:"prefix_cache" json:"prefix_cache,omitempty"`
}

// Arm is one variant of the engine command: extra args and env.
type Arm struct {
	Name string            `yaml:"name" json:"name"`
	Args []string          `yaml:"args" json:"args,omitempty"`
	Env  map[string]string `yaml:"env" json:"env,omitempty"`
	// Control marks a negative-control arm: the baseline's settings,
	// measured as if it were a change. Its ratio is the method's noise
	// floor, and the counter gate treats it like the baseline.
	Control bool `yaml:"control" json:"control,omitempty"`
	// Engine, when given, overrides keys of the scenario's engine for
	// this arm: another build, its source, its version command (see
	// ArmEngine). The arm's args are still appended to its command.
	Engine *ArmEngine `yaml:"engine" json:"engine,omitempty"`
	// Concurrency is how many identical requests the arm sends at once
	// in each measured run; nil for one (concurrency.go).
	Concurrency *Concurrency `yaml:"concurrency" json:"concurrency,omitempty"`
}

// Schedule says how many measured runs each arm gets and in which order.
type Schedule struct {
	Rounds Rounds `yaml:"rounds" json:"rounds"`
	Warmup int    `yaml:"warmup" json:"warmup"`
	// Requests is the number of measured requests per engine start (1
	// when absent); the start, not the request, is the unit the analysis
	// replicates (its mean on log scale).
	Requests int          `yaml:"requests" json:"requests,omitempty"`
	Order    schema.Order `yaml:"order" json:"order"`
	Seed     int64        `yaml:"seed" json:"seed"`
	Cooldown Cooldown     `yaml:"cooldown" json:"cooldown"`
}

// Counter is an arm-distinguishing counter: exactly one of Metric, JSON and
// Log names its source, and Expect maps arm names to expectations such as
// "== 0" or "> 0".
type Counter struct {
	Name   string `yaml:"name" json:"name"`
	Metric string `yaml:"metric" json:"metric,omitempty"`
	JSON   string `yaml:"json" json:"json,omitempty"`
	Log    string `yaml:"log" json:"log,omitempty"`
	// Props is a dotted path into the server's GET /props reply
	// (build_info), read in every run; Version reads the arm's engine
	// version output ("output": all of it). Both read text, which
	// Capture, a regular expression with one group, may narrow
	// ("^(b[0-9]+)"); expectations may then compare text ("== b11669").
	Props   string `yaml:"props" json:"props,omitempty"`
	Version string `yaml:"version" json:"version,omitempty"`
	Capture string `yaml:"capture" json:"capture,omitempty"`
	// Phase is which log lines a log counter reads: the measured
	// window's (the default) or the engine's start-up, until it was
	// ready, where a server states its settings.
	Phase  schema.LogPhase   `yaml:"phase" json:"phase,omitempty"`
	Expect map[string]string `yaml:"expect" json:"expect"`
}

// Source returns the counter's source kind and its expression.
func (c Counter) Source() (schema.SourceKind, string) {
	switch {
	case c.Metric != "":
		return schema.SourceMetric, c.Metric
	case c.JSON != "":
		return schema.SourceJSON, c.JSON
	case c.Log != "":
		return schema.SourceLog, c.Log
	case c.Props != "":
		return schema.SourceProps, c.Props
	case c.Version != "":
		return schema.SourceVersion, c.Version
	}
	return "", ""
}

// Metrics chooses the primary metric; the others are reported as secondary.
type Metrics struct {
	Primary string `yaml:"primary" json:"primary"`
	// Extra declares the scenario's own metrics (see ExtraMetric).
	Extra []ExtraMetric `yaml:"extra" json:"extra,omitempty"`
}

// Arm returns the arm with the given name.
func (s *Scenario) Arm(name string) (Arm, bool) {
	for _, a := range s.Arms {
		if a.Name == name {
			return a, true
		}
	}
	return Arm{}, false
}

// ArmNames returns the arm names in scenario order.
func (s *Scenario) ArmNames() []string {
	names := make([]string, len(s.Arms))
	for i, a := range s.Arms {
		names[i] = a.Name
	}
	return names
}

// Duration is a time.Duration written in YAML as a Go duration string
// ("2s", "500ms").
type Duration struct{ time.Duration }

// MarshalText writes the duration as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// Note is a sentence in a list such as unmeasured. Written plainly in YAML,
// "Prefill throughput: prompts are short." is a one-entry mapping, not a
// string; Note accepts that form too and keeps it as the sentence it reads as.
type Note string

// UnmarshalYAML accepts a scalar, or a mapping of one scalar key to one
// scalar value, read back as "key: value".
func (n *Note) UnmarshalYAML(node *yaml.Node) error {
	if text, ok := noteText(node); ok {
		*n = Note(text)
		return nil
	}
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected a sentence", node.Line)}}
}

func (n *Note) checkNode(node *yaml.Node) string {
	if _, ok := noteText(node); !ok {
		return "expected a sentence, got " + kindName(node)
	}
	return ""
}

func noteText(node *yaml.Node) (string, bool) {
	switch {
	case node.Kind == yaml.ScalarNode:
		return node.Value, true
	case node.Kind == yaml.MappingNode && len(node.Content) == 2 &&
		node.Content[0].Kind == yaml.ScalarNode && node.Content[1].Kind == yaml.ScalarNode:
		return node.Content[0].Value + ": " + node.Content[1].Value, true
	}
	return "", false
}

// Host is what decodebench may change on the machine for a campaign.
type Host struct {
	// PauseIndexing pauses Spotlight indexing and Time Machine on macOS
	// for the campaign (root needed) and restores them on every exit path;
	// a campaign that died restores them when the next one starts.
	PauseIndexing bool `yaml:"pause_indexing" json:"pause_indexing,omitempty"`
}

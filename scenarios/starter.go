package scenarios

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// DefaultStarterPreset is the preset of `decodebench init` without --preset.
const DefaultStarterPreset = "llama.cpp"

// starterArms are the classic and speculative arms' args of each preset's
// starter scenario, the vars its command uses, and binVar, the variable
// that names its binary, when there is one (the shipped llama.cpp
// scenarios' LLAMA_SERVER, which `make demo` prints and a hint says to
// set: setting it then does what the hint says).
var starterArms = map[string]struct {
	classic, speculative []string
	vars                 [][2]string
	binVar               string
}{
	"llama.cpp": {[]string{"--spec-type", "none"}, []string{"--spec-type", "draft-simple", "--spec-draft-model", "${MODEL_DIR}/draft.gguf"},
		[][2]string{{"MODEL_DIR", ".cache/models"}}, "LLAMA_SERVER"},
	"llama-server-spec": {[]string{"--spec-type", "none"}, []string{"--spec-type", "mtp", "--draft-block-size", "3"},
		[][2]string{{"MODEL_DIR", "models"}}, ""},
	"openai": {[]string{}, []string{"--speculative"}, nil, ""},
	"mlx-lm": {[]string{}, []string{"--draft-model", "${DRAFT_MODEL}", "--num-draft-tokens", "3"},
		[][2]string{{"MODEL", "mlx-community/Qwen2.5-7B-Instruct-4bit"}, {"DRAFT_MODEL", "mlx-community/Qwen2.5-0.5B-Instruct-4bit"}}, ""},
	"vllm": {[]string{}, []string{"--speculative-config", `{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}`},
		[][2]string{{"MODEL", "Qwen/Qwen2.5-0.5B-Instruct"}}, ""},
}

// Starter returns a commented starter scenario for a preset ("" for
// DefaultStarterPreset): a classic and a speculative arm, the preset's
// usual distinguishing counters, and every required key, so that it
// validates as written and is edited from there.
func Starter(preset string) ([]byte, error) {
	if preset == "" {
		preset = DefaultStarterPreset
	}
	p, ok := LookupPreset(preset)
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (known: %s)", preset, strings.Join(PresetNames(), ", "))
	}
	arms := starterArms[preset]
	command := p.Command
	if arms.binVar != "" {
		arms.vars = append([][2]string{{arms.binVar, command[0]}}, arms.vars...)
		command = append([]string{"${" + arms.binVar + "}"}, command[1:]...)
	}
	var b strings.Builder
	w := func(format string, args ...any) { writeLine(&b, format, args...) }
	w("# A starter scenario for %s (preset %s), written by `decodebench init`.", p.About, preset)
	w("# It compares classic decode with a speculative arm. Edit the command, the")
	w("# arms and the prompt, then check it with `decodebench validate FILE` and look")
	w("# at the plan with `decodebench run FILE --dry-run`. Every key is described in")
	w("# docs/reference/scenario-keys.md; docs/guide/writing-scenarios.md walks through one.")
	w("# Run: decodebench run FILE")
	w("")
	w("# The record is written to docs/benchmark_results/<feature>-<hardware>-<date>.md.")
	w("feature: my-%s-speculation", slug(preset))
	w("title: Speculative decoding vs classic decode (%s)", preset)
	w("hardware: auto")
	w("# ${NAME} in the command and args is replaced by vars, or by the environment")
	w("# variable of that name; ${PORT} is the port decodebench picks for each start.")
	if len(arms.vars) > 0 {
		w("vars:")
		for _, kv := range arms.vars {
			w("  %s: %s", kv[0], quote(kv[1]))
		}
	}
	w("engine:")
	w("  # Fills in ready.path (%s), metrics_path (%s) and request.endpoint (%s);", p.ReadyPath, p.MetricsPath, p.Endpoint)
	w("  # write any of them to override it. `decodebench presets` lists the presets.")
	w("  preset: %s", preset)
	w("  command: %s", list(command))
	if len(p.VersionCommand) > 0 {
		w("  # Recorded as the engine's version beside the binary's --version.")
		w("  version_command: %s", list(p.VersionCommand))
	}
	w("  request:")
	if strings.HasPrefix(p.Endpoint, "/v1/") {
		w("    # OpenAI-compatible servers want the model's name in each request.")
		model := "${MODEL}"
		if !hasVar(arms.vars, "MODEL") {
			model = "default"
		}
		w("    model: %s", quote(model))
	}
	w("    prompt: \"Once upon a time\"")
	w("    max_tokens: 128")
	w("    # Greedy decoding, so that the arms' outputs can be compared (exactness).")
	w("    temperature: 0")
	w("    seed: 0")
	w("arms:")
	w("  - name: classic")
	w("    args: %s", list(arms.classic))
	w("  # A matrix sweeps parameters: `matrix: {block: [2, 3, 4]}` with")
	w("  # name: \"spec-b${block}\" gives one arm per value.")
	w("  - name: speculative")
	w("    args: %s", list(arms.speculative))
	w("baseline: classic")
	w("schedule:")
	w("  # Measured runs per arm, interleaved: a look every 5 rounds, stop once")
	w("  # every test arm is decided (alpha spent over the looks), else at 30")
	w("  # rounds or when the budget of 15 minutes leaves no room for a look.")
	w("  rounds: {min: 5, max: 30, max_time: 15m, every: 5}")
	w("  warmup: 1        # unmeasured requests before each measured one")
	w("  order: rotate    # rotate, abba or random")
	w("  cooldown: 2s")
	if len(p.Counters) > 0 {
		w("# A counter proves in every run that each arm ran what it claims: the")
		w("# expectations of the classic and the speculative arm cannot both hold.")
		w("counters:")
		for _, c := range p.Counters {
			kind, expr := c.Source()
			w("  - name: %s", c.Name)
			w("    %s: %s", kind, quote(expr))
			var keys []string
			for k := range c.Expect {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, fmt.Sprintf("%s: %s", k, quote(c.Expect[k])))
			}
			w("    expect: {%s}", strings.Join(parts, ", "))
		}
	} else {
		w("# No counter of this engine is known to tell the arms apart. Name one")
		w("# (counters: with a metric, json or log source) to make the campaign VALID;")
		w("# until then it runs UNVERIFIED, for the reason given here.")
		w("allow_unverified: %s", quote("no counter of this engine is known to tell a speculative arm from classic decode"))
	}
	if len(p.EngineMetrics) > 0 {
		w("# Engine metrics worth reading: %s.", strings.Join(p.EngineMetrics, ", "))
	}
	w("metrics:")
	w("  primary: decode_tok_s")
	w("# Before every run, wait for a quiet host: no other process above 15% of")
	w("# one core for 5 s, at most a minute, then run anyway, the record saying")
	w("# so. `decodebench run` says before the first run what it found.")
	w("gates:")
	w("  quiet: {window: 5s, interval: 1s, max_wait: 1m, on_busy: wait}")
	w("# Greedy speculative decoding promises classic decode's exact output.")
	w("exactness:")
	w("  compare: [speculative]")
	w("  against: classic")
	w("  on_mismatch: report")
	w("# What this campaign does not measure, so that readers do not assume it.")
	w("unmeasured:")
	w("  - \"Concurrency: one request at a time.\"")
	w("  - \"Memory use and energy.\"")
	return []byte(b.String()), nil
}

// writeLine writes a line of a scenario built here: format with args,
// or, without args, the text as it is (a comment's "15%" stays 15%).
func writeLine(b *strings.Builder, format string, args ...any) {
	if len(args) == 0 {
		b.WriteString(format + "\n")
		return
	}
	fmt.Fprintf(b, format+"\n", args...)
}

func hasVar(vars [][2]string, name string) bool {
	for _, kv := range vars {
		if kv[0] == name {
			return true
		}
	}
	return false
}

// quote writes s as a YAML double-quoted scalar (JSON's escapes are
// YAML's), with <, > and & as they are: they need no escape in YAML, and
// "\u003e 0" is no way to write "> 0" for a person to read.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func list(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// slug makes a preset name fit a feature name.
func slug(s string) string {
	return strings.Trim(strings.NewReplacer(".", "", "_", "-").Replace(strings.ToLower(s)), "-")
}

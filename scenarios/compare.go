package scenarios

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ComparePreset is the preset whose defaults `decodebench compare` runs
// with: two llama-server command lines.
const ComparePreset = "llama.cpp"

// CompareArms are the two command lines `decodebench compare` measures:
// Base (the baseline) and Head, each a whole engine command. BaseVersion
// and HeadVersion are what each binary's --version printed, when the two
// binaries differ ("" when they were not read).
type CompareArms struct {
	Base, Head               []string
	BaseVersion, HeadVersion string
	// Rounds is schedule.rounds (0: the starter's sequential schedule).
	Rounds int
}

// buildNumber reads llama-server's build number from its --version output
// ("version: 0.7.0 (build 11669, ...)", "version: 11669 (abc)").
var buildNumber = regexp.MustCompile(`\(build (\d+)|version: (\d+) `)

func buildOf(version string) string {
	m := buildNumber.FindStringSubmatch(version + " ")
	if m == nil {
		return ""
	}
	return "b" + m[1] + m[2]
}

// lastFlag is the value of the last of names in argv ("" when absent).
func lastFlag(argv []string, names ...string) string {
	_, _, raw := flagValue(argv, nil, "", names...)
	return raw
}

// hasFlag reports whether argv names any of the flags.
func hasFlag(argv []string, names ...string) bool {
	return slices.ContainsFunc(argv, func(a string) bool {
		name, _, _ := strings.Cut(a, "=")
		return slices.Contains(names, name)
	})
}

// serverArgs is a llama-server command line as a campaign starts it:
// listening on loopback and on the port decodebench picks, unless it says
// where itself.
func serverArgs(argv []string) []string {
	out := slices.Clone(argv)
	if !hasFlag(out, "--host") {
		out = append(out, "--host", "127.0.0.1")
	}
	if !hasFlag(out, "--port") {
		out = append(out, "--port", "${PORT}")
	}
	return out
}

// compareCounter is a counter that tells the two command lines apart,
// in the starter's YAML form, and why.
type compareCounter struct{ yaml, why string }

// compareCounters are the counters that prove which command line each
// run ran, from what differs between them: the build each binary reports
// (GET /props, when their --version builds differ), the thread count the
// server states at start-up (-t), speculative decoding (--spec-type none
// against another). None when no known counter tells them apart.
func compareCounters(a CompareArms) []compareCounter {
	var out []compareCounter
	if b, h := buildOf(a.BaseVersion), buildOf(a.HeadVersion); b != "" && h != "" && b != h {
		out = append(out, compareCounter{fmt.Sprintf(`  - name: build
    props: build_info
    capture: '^(b[0-9]+)'
    expect: {base: "== %s", head: "== %s"}
`, b, h), "the build each server reports in GET /props"})
	}
	bt, ht := lastFlag(a.Base, "-t", "--threads"), lastFlag(a.Head, "-t", "--threads")
	if bt != "" && ht != "" && bt != ht && isCount(bt) && isCount(ht) {
		out = append(out, compareCounter{fmt.Sprintf(`  - name: threads
    log: 'threadpool init, n_threads = (\d+)'
    phase: startup
    expect: {base: "== %s", head: "== %s"}
`, bt, ht), "the thread count the server states while it starts"})
	}
	// Without --spec-type, llama-server decodes classically.
	bs, hs := cmp.Or(lastFlag(a.Base, "--spec-type"), "none"), cmp.Or(lastFlag(a.Head, "--spec-type"), "none")
	if (bs == "none") != (hs == "none") {
		classic, other := "base", "head"
		if hs == "none" {
			classic, other = "head", "base"
		}
		out = append(out, compareCounter{fmt.Sprintf(`  - name: draft_tokens
    json: timings.draft_n
    expect: {%s: "== 0", %s: "> 0"}
`, classic, other), "the draft tokens each reply counts"})
	}
	return out
}

func isCount(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// Compare returns the scenario `decodebench compare` runs: the llama.cpp
// preset's defaults (the starter's request, schedule and quiet gate) with
// two arms, base (the baseline) and head, each its own engine command,
// and the counters that tell them apart (compareCounters); without one
// the campaign runs UNVERIFIED, for the reason it states. It is written
// beside the record, to be edited and run again with `decodebench run`.
func Compare(a CompareArms) []byte {
	var b strings.Builder
	w := func(format string, args ...any) { writeLine(&b, format, args...) }
	w("# Written by `decodebench compare`: the head command line against the base one,")
	w("# with the %s preset's defaults. Edit it (docs/reference/scenario-keys.md", ComparePreset)
	w("# describes every key) and run it again with `decodebench run FILE`.")
	w("feature: compare")
	w("title: head vs base (decodebench compare)")
	w("hardware: auto")
	w("engine:")
	w("  preset: %s", ComparePreset)
	w("  command: %s", list(serverArgs(a.Base)))
	w("  request:")
	w("    prompt: \"Once upon a time\"")
	w("    max_tokens: 128")
	w("    temperature: 0")
	w("    seed: 0")
	w("    ignore_eos: true")
	w("arms:")
	w("  - name: base")
	w("  - name: head")
	w("    engine:")
	w("      command: %s", list(serverArgs(a.Head)))
	w("baseline: base")
	w("schedule:")
	if a.Rounds > 0 {
		w("  rounds: %d", a.Rounds)
	} else {
		w("  rounds: {min: 5, max: 30, max_time: 15m, every: 5}")
	}
	w("  warmup: 1")
	w("  order: rotate")
	w("  seed: 1")
	w("  cooldown: 2s")
	if cs := compareCounters(a); len(cs) > 0 {
		w("# Each run proves which command line it ran:")
		for _, c := range cs {
			w("#   %s: %s.", strings.TrimPrefix(strings.SplitN(c.yaml, "\n", 2)[0], "  - name: "), c.why)
		}
		w("counters:")
		for _, c := range cs {
			b.WriteString(c.yaml)
		}
	} else {
		w("# No counter known to decodebench tells these two command lines apart (it")
		w("# knows the build in GET /props, -t at start-up and --spec-type): add one")
		w("# (docs/guide/writing-scenarios.md) to make the campaign VALID.")
		w("allow_unverified: %s", quote("decodebench compare knows no counter that tells these two command lines apart"))
	}
	w("metrics:")
	w("  primary: decode_tok_s")
	w("gates:")
	w("  quiet: {window: 5s, interval: 1s, max_wait: 1m, on_busy: wait}")
	w("unmeasured:")
	w("  - \"Prefill throughput: the prompt is four words long.\"")
	w("  - \"Concurrency: one request at a time.\"")
	w("  - \"Memory use and energy.\"")
	return []byte(b.String())
}

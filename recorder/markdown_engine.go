package recorder

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) engine(r *schema.Record) {
	m.h2("Engine")
	sp := newShortPaths(r)
	if len(r.Engines) == 0 {
		m.engineTable(r.Engine, sp)
	} else {
		m.p("The arms ran %d engines:\n\n", len(r.Engines))
		for i, e := range r.Engines {
			arms := make([]string, len(e.Arms))
			for j, a := range e.Arms {
				arms[j] = code(a)
			}
			word := "arms"
			if len(arms) == 1 {
				word = "arm"
			}
			m.p("Engine %d, run by %s %s:\n\n", i+1, word, strings.Join(arms, ", "))
			m.engineTable(e.EngineInfo, sp)
			if i < len(r.Engines)-1 {
				m.ln("")
			}
		}
	}
	m.ln("")
	m.ln("Command line per arm (`${PORT}` is a free loopback port chosen per engine start):")
	m.ln("")
	for _, a := range r.Scenario.Arms {
		m.p("- %s: %s", code(a.Name), code(strings.Join(sp.command(a.Command), " ")))
		if len(a.Env) > 0 {
			m.p(" with env %s", envString(a.Env))
		}
		m.ln("")
	}
	m.ln("")
	m.loaded(r, sp)
	q := r.Scenario.Request
	if r.Method.EngineKind == "command" && r.Schema != schema.SchemaV2 {
		m.p("Request: none; a command-line engine takes its prompt and token count on its command line.\n\n")
	} else {
		m.p("Request: %s, prompt %s, max_tokens %d, temperature %s, seed %d, ignore_eos %v, streamed.\n\n",
			code("POST "+q.Endpoint), code(strconv.Quote(excerpt(q.Prompt, 80))), q.MaxTokens, num(q.Temperature, 3), q.Seed, q.IgnoreEOS)
	}
	if len(r.Scenario.Vars) > 0 {
		var vs []string
		for _, kv := range r.Scenario.Vars {
			v := code(kv.Name + "=" + sp.path(kv.Value))
			if kv.FromEnv {
				v = code(kv.Name) + " (from the environment, value not recorded)"
			}
			vs = append(vs, v)
		}
		m.p("Variables: %s.\n\n", strings.Join(vs, ", "))
	}
}

// engineTable is one engine's identity.
func (m *mdWriter) engineTable(e schema.EngineInfo, sp shortPaths) {
	m.p("| | |\n|---|---|\n")
	m.p("| Command | %s |\n", cellCode(sp.engineCommand(e.Command)))
	m.p("| Resolved path | %s |\n", cellCode(sp.path(e.Path)))
	m.p("| sha256 | %s |\n", cellCode(e.SHA256))
	if e.RealBinary != "" {
		m.p("| Wrapped binary | %s |\n", cellCode(sp.path(e.RealBinary)))
		m.p("| Wrapped sha256 | %s |\n", cellCode(e.RealSHA256))
	}
	m.p("| Version | %s |\n", cellText(strings.ReplaceAll(e.Version, "\n", "; ")))
	if e.SourceDir != "" {
		dirty := "unknown"
		if e.SourceDirty != nil {
			dirty = fmt.Sprint(*e.SourceDirty)
		}
		m.p("| Source | %s at %s (dirty: %s) |\n", cellCode(sp.path(e.SourceDir)), cellCode(e.SourceCommit), dirty)
	}
	if e.BinaryOlderThanSource {
		m.p("| Stale binary | older than the source's last commit: not built from it |\n")
	}
	if e.AllowDirty != "" {
		m.p("| Allowed dirty or stale | %s |\n", cellText(e.AllowDirty))
	}
	for _, l := range e.Libraries {
		if m.fold {
			break // after the table, folded (libraries)
		}
		m.p("| Library | %s, sha256 %s |\n", cellCode(sp.path(l.Path)), cellCode(l.SHA256))
	}
	for _, f := range e.Models {
		m.p("| Model file | %s → %s, %s bytes, sha256 %s |\n", cellCode(sp.word(f.Arg)), cellCode(sp.path(f.Path)), strconv.FormatInt(f.Bytes, 10), cellCode(f.SHA256))
	}
	for _, p := range e.Problems {
		m.p("| Problem | %s |\n", cellText(p))
	}
	if m.fold {
		m.libraries(e, sp)
	}
}

func envString(env map[string]string) string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = code(k + "=" + env[k])
	}
	return strings.Join(parts, " ")
}

package review

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// launchProblems compares the command line each launch marker of a
// finished run's log names with the one the data block states for the
// run's arm (scenario.arms[].command, the record's "Command line per
// arm"): the harness writes the argv it starts into the log before it
// starts it (a server's "start: ", a command engine's "measured run: "
// and "warmup run N (discarded): "), ${PORT} filled with the run's port,
// secrets masked as the record's. The stored scenario cannot decide the
// command (the machine's variables fill it), so the log is its evidence:
// without this an argument appended to an arm's command in the data
// block (--spec-draft-n-max 32, re-hashed and re-rendered) passed check,
// and the record said its draft arm ran what it never ran. A finished
// run's log that names no launch is a problem too.
func launchProblems(rec *schema.Record, r schema.Run, w engine.StoredWindow) []string {
	argv, ok := armCommand(rec, r)
	if !ok {
		return nil // checkArmEngines names a run of an arm the record does not have
	}
	if rec.Method.EngineKind != string(scenarios.KindCommand) {
		port := strconv.Itoa(r.Port)
		argv = append([]string(nil), argv...)
		for i, a := range argv {
			argv[i] = scenarios.ExpandPort(a, port)
		}
	}
	want := strings.Join(argv, " ")
	var out []string
	launched := false
	for _, m := range w.Markers {
		got, ok := launchedCommand(m.Text)
		if !ok {
			continue
		}
		launched = true
		if !sameLaunch(got, want) {
			out = append(out, fmt.Sprintf("its log %s launched %s; the data block states arm %s's command line as %s (${PORT} filled with the run's port %d)",
				termsafe.String(r.Log), quoteLine(got), termsafe.String(r.Arm), quoteLine(want), r.Port))
		}
	}
	if !launched && w.MarkersLeft == 0 {
		out = append(out, fmt.Sprintf("its log %s names no launch of the engine (no start: line), where the harness writes the command line it starts", termsafe.String(r.Log)))
	}
	return out
}

// armCommand is the command line the data block states for run r's arm.
func armCommand(rec *schema.Record, r schema.Run) ([]string, bool) {
	for _, a := range rec.Scenario.Arms {
		if a.Name == r.Arm {
			return a.Command, true
		}
	}
	return nil, false
}

// launchMarker is a launch marker's text: a server's start, or a command
// engine's run under its label (harness/command.go), then the argv
// joined by spaces.
var launchMarker = regexp.MustCompile(`^(?:start|measured run|warmup run [0-9]+ \(discarded\)): `)

// launchedCommand is the command line a marker's text says was launched.
func launchedCommand(text string) (string, bool) {
	loc := launchMarker.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	return text[loc[1]:], true
}

// sameLaunch reports whether the logged command line is the stated one.
// Where either holds a mask (redact.Mask) the two are compared argument
// by argument (split at spaces), a mask standing for the other's text
// within its argument, as check_evidence's hidden() lets a masked line
// hide only its secret: the log and the record are masked by one
// redactor, and a mask never stands for an argument added or removed.
func sameLaunch(logged, stated string) bool {
	if logged == stated {
		return true
	}
	if !strings.Contains(logged, redact.Mask) && !strings.Contains(stated, redact.Mask) {
		return false
	}
	l, s := strings.Split(logged, " "), strings.Split(stated, " ")
	if len(l) != len(s) {
		return false
	}
	for i := range l {
		if l[i] != s[i] && !matchMasked(l[i], s[i]) && !matchMasked(s[i], l[i]) {
			return false
		}
	}
	return true
}

// quoteLine is a command line as a problem shows it: quoted, and at most
// maxShownLine bytes of it.
func quoteLine(s string) string {
	if len(s) > maxShownLine {
		s = s[:maxShownLine] + "…"
	}
	return strconv.Quote(termsafe.String(s))
}

// maxShownLine bounds a command line a problem shows.
const maxShownLine = 400

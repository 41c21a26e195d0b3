package engine

import "strings"

// StartError is an engine that could not be started or never became
// ready. It carries the last lines of the engine's log.
type StartError struct {
	Reason  string
	LogTail []string
}

// logLinesIntro introduces the log tail in a StartError's text.
const logLinesIntro = "last engine log lines:"

func (e *StartError) Error() string {
	var b strings.Builder
	b.WriteString(e.Reason)
	if len(e.LogTail) > 0 {
		b.WriteString("; " + logLinesIntro + "\n")
		for _, l := range e.LogTail {
			b.WriteString("    ")
			b.WriteString(l)
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// ParseStartError reads back the text of an error, as a run stores it: a
// StartError's gives its reason and log tail, any other error's its reason.
func ParseStartError(s string) StartError {
	reason, rest, _ := strings.Cut(s, logLinesIntro)
	e := StartError{Reason: strings.TrimRight(reason, "; ")}
	for _, l := range strings.Split(rest, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			e.LogTail = append(e.LogTail, l)
		}
	}
	return e
}

package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// bisectEntry is one bisect summary in the index.
type bisectEntry struct {
	file     string
	line     string // the row, or "" when the summary does not parse
	err      error
	problems []Problem
}

// readBisect reads the file at path as a bisect summary when it is one
// (ok false when it is not).
func readBisect(path, base string, links *identityMemo) (e bisectEntry, ok bool) {
	src, err := safefs.ReadFile(path, safefs.MaxRecord)
	if err != nil || !recorder.IsBisect(src) {
		return e, false
	}
	e.file = base
	b, err := recorder.ParseBisect(src)
	if err != nil {
		e.err = err
		return e, true
	}
	e.problems = checkBisect(path, src, links)
	first := "—"
	if b.Outcome.FirstBad != "" {
		first = cellText(b.Outcome.FirstBad[:min(12, len(b.Outcome.FirstBad))])
	}
	e.line = fmt.Sprintf("| %s | %s | [%s](%s) | %s | %s | %d | %s |\n", cellText(b.Date), cellText(b.Feature), cellText(strings.TrimSuffix(base, ".md")), linkTarget(base),
		cellText(string(b.Outcome.Result)), first, len(b.Steps), problemsCell(e.problems))
	return e, true
}

// bisectSection lists the bisect summaries, in file name order.
func bisectSection(es []bisectEntry) string {
	var b strings.Builder
	b.WriteString("## Bisections\n\n| date | feature | summary | result | first bad commit | steps | problems |\n|---|---|---|---|---|---|---|\n")
	for _, e := range es {
		b.WriteString(e.line)
	}
	b.WriteString("\n")
	return b.String()
}

package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// readBisect reads the file at path as a bisect summary when it is one
// (ok false when it is not); err when it is one that does not parse.
func readBisect(path, base string, links *identityMemo) (b FleetBisect, ok bool, err error) {
	src, err := safefs.ReadFile(path, safefs.MaxRecord)
	if err != nil || !recorder.IsBisect(src) {
		return b, false, nil
	}
	b.File = base
	if b.Summary, err = recorder.ParseBisect(src); err != nil {
		return b, true, err
	}
	b.Problems = checkBisect(path, src, links)
	return b, true, nil
}

// bisectSection lists the bisect summaries, in file name order: the
// result of one that fails check is not shown (ShownResult).
func bisectSection(bs []FleetBisect) string {
	var b strings.Builder
	b.WriteString("## Bisections\n\n| date | feature | summary | result | first bad commit | steps | problems |\n|---|---|---|---|---|---|---|\n")
	for _, e := range bs {
		s := e.Summary
		result, firstBad := e.ShownResult()
		first := "—"
		if firstBad != "" {
			first = cellText(firstBad[:min(12, len(firstBad))])
		}
		fmt.Fprintf(&b, "| %s | %s | [%s](%s) | %s | %s | %d | %s |\n", cellText(s.Date), cellText(s.Feature), cellText(strings.TrimSuffix(e.File, ".md")), linkTarget(e.File),
			cellText(result), first, len(s.Steps), problemsCell(e.Problems))
	}
	b.WriteString("\n")
	return b.String()
}

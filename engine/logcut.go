package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// cutMarkText is the text of the marker a log writes where it left engine
// output out (Close): the bytes and lines it left out.
func cutMarkText(bytes, lines int64) string {
	return fmt.Sprintf("%s %d bytes in %d lines between the log's first %s and its last %s were left out (decodebench's own marker lines from that stretch follow)",
		markCut, bytes, lines, sizeText(LogHeadBytes), sizeText(LogTailBytes))
}

var cutCounts = regexp.MustCompile(`^` + regexp.QuoteMeta(markCut) + ` ([0-9]+) bytes in ([0-9]+) lines `)

// cutSlack is how far short of LogHeadBytes a cut log's head, and of
// LogTailBytes its tail, may end: the line that did not fit, at most
// MaxLogLine and its newline, with room for a long marker line.
const cutSlack = MaxLogLine + 1 + 4<<10

// cutMark is a cut marker line as a log file holds it: where it starts,
// where the line after it starts, and its marker text and time.
type cutMark struct {
	at, end    int64
	text, when string
}

// genuineCut returns the bytes a cut marker says the log left out, and
// whether the marker is one a log writes: its text as Close writes it, a
// time, and the file around it as large as a cut log's, a head of nearly
// LogHeadBytes before it and a tail of nearly LogTailBytes after it (a
// log cuts nothing before its head is full, and keeps a full tail after
// the cut). A marker line written into a small log, or in another form,
// is not the engine's cut.
func genuineCut(m cutMark, size int64) (int64, bool) {
	c := cutCounts.FindStringSubmatch(m.text)
	if c == nil {
		return 0, false
	}
	n, err1 := strconv.ParseInt(c[1], 10, 64)
	lines, err2 := strconv.ParseInt(c[2], 10, 64)
	if err1 != nil || err2 != nil || m.text != cutMarkText(n, lines) || (n > 0) != (lines > 0) {
		return 0, false
	}
	if _, err := time.Parse(time.RFC3339Nano, m.when); err != nil {
		return 0, false
	}
	if m.at < LogHeadBytes-cutSlack || size-m.end < LogTailBytes-cutSlack {
		return 0, false
	}
	return n, true
}

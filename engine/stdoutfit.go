package engine

// StdoutFits reports whether out, a command engine's stored output, can be
// part of the standard output that the window's lines (its log file's, as
// MeasuredWindow reads them) interleave with standard error. The log takes
// each stream a line at a time since 2026-12-06 (Log.Stdout); an older log
// took both as they arrived, so a line of its file is a piece of standard
// output followed by the start of a write to standard error running to
// the line's end (a write of whole lines, as a log writes), or standard
// output to its newline. Both fit here; invalid UTF-8 in the file
// is read as ValidUTF8 replaces it. A text whose characters the window
// holds in another order, or not at all, does not fit: one run's output
// written over another's is told from the log. A text that is a piece of
// what the window shows (one cut short at a line's end) can fit.
//
// The search is bounded (maxFitWork byte comparisons); past the bound the
// text is taken to fit.
func StdoutFits(out string, lines []string) bool {
	if out == "" {
		return true
	}
	reach := make([]bool, len(out)+1) // positions of out reached at a line's start
	at := map[byte][]int{}            // positions of out, by byte
	for i := 0; i < len(out); i++ {
		at[out[i]] = append(at[out[i]], i)
	}
	work := 0
	var next []int
	// from matches out[j:] against l[k:]: the positions reached by the
	// next line, and whether out ends here.
	from := func(l string, j, k int) bool {
		m := 0
		for j+m < len(out) && k+m < len(l) && out[j+m] == l[k+m] {
			m++
		}
		work += m + 1
		if j+m == len(out) {
			return true
		}
		for x := j + 1; x <= j+m; x++ {
			next = append(next, x)
		}
		if k+m == len(l) {
			e := j + m
			for e < len(out) && out[e] == '\r' {
				e++
			}
			if e < len(out) && out[e] == '\n' {
				if e+1 == len(out) {
					return true
				}
				next = append(next, e+1)
			}
		}
		return false
	}
	for _, raw := range lines {
		l := ValidUTF8(raw)
		next = next[:0]
		if len(l) > 0 {
			for _, j := range at[l[0]] {
				if reach[j] && from(l, j, 0) {
					return true
				}
			}
		} else {
			for _, j := range at['\n'] {
				if reach[j] && from(l, j, 0) {
					return true
				}
			}
		}
		for k := 0; k < len(l); k++ {
			if l[k] == out[0] && from(l, 0, k) {
				return true
			}
		}
		for _, x := range next {
			reach[x] = true
		}
		if work > maxFitWork {
			return true
		}
	}
	return false
}

// maxFitWork bounds StdoutFits' byte comparisons.
const maxFitWork = 1 << 27

package recorder

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// num formats v with up to digits significant digits; non-finite values
// show as an em dash.
func num(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if v == 0 {
		return "0"
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	dec := digits - 1 - mag
	if dec < 0 {
		dec = 0
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// count formats a counter value exactly, without padding zeros.
func count(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// excerpt is s when it has at most n characters, else its first n
// characters (each byte that is not UTF-8 a U+FFFD) and "…". It reads at
// most n characters of s: an output of many megabytes costs no more than
// a short one.
func excerpt(s string, n int) string {
	var b strings.Builder
	for i, kept := 0, 0; i < len(s); kept++ {
		if kept == n {
			return b.String() + "…"
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return s
}

func bytesString(n uint64) string {
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// round4 rounds v to four decimals, for alphas shown in sentences.
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

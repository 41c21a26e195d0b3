// Package pct writes proportions as percentages: every way decodebench
// turns a fraction into text, one function each, so that a record is
// re-rendered by the very formatter that wrote it.
package pct

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const dash = "—"

// Exact is v×100 with every digit the float holds and no padding: 95%,
// 4%, 0.5%, 7.000000000000001% (a threshold or level as given).
func Exact(v float64) string { return strconv.FormatFloat(v*100, 'f', -1, 64) + "%" }

// Rounded is v×100 to at most ten significant digits, without trailing
// zeros: 7%, not the 7.000000000000001% of 0.07×100.
func Rounded(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v*100, 'g', 10, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64) + "%"
}

// Sig is v×100 to n significant digits: 99.17%.
func Sig(v float64, n int) string { return strconv.FormatFloat(v*100, 'g', n, 64) + "%" }

// Fixed is v×100 with decimals digits after the point: 4.31%; a dash when
// v is not a number.
func Fixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	return fmt.Sprintf("%.*f%%", decimals, v*100)
}

// Signed is Fixed with the sign always written: +6.1%, -0.4%.
func Signed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	return fmt.Sprintf("%+.*f%%", decimals, v*100)
}

// Share is n of d to one decimal, without a trailing .0: 61.1%, 50%; a
// dash when d is 0.
func Share(n, d int) string {
	if d == 0 {
		return dash
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/float64(d)*100, 'f', 1, 64), ".0") + "%"
}

package pct

import (
	"math"
	"testing"
)

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Exact(0.95), "95%"}, {Exact(0.005), "0.5%"}, {Exact(0.07), "7.000000000000001%"},
		{Rounded(0.07), "7%"}, {Rounded(0.123456789012), "12.3456789%"},
		{Sig(0.991666, 4), "99.17%"},
		{Fixed(0.04312, 2), "4.31%"}, {Fixed(math.NaN(), 2), "—"}, {Fixed(0.1, 1), "10.0%"},
		{Signed(0.061, 1), "+6.1%"}, {Signed(-0.004, 1), "-0.4%"}, {Signed(0, 2), "+0.00%"}, {Signed(math.Inf(1), 1), "—"},
		{Share(11, 18), "61.1%"}, {Share(1, 2), "50%"}, {Share(1, 0), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

package machine

import (
	"os"
	"testing"
)

func TestParseBrandString(t *testing.T) {
	tests := []struct {
		name string
		out  []byte
		want string
	}{
		{"fixture m1pro", readFile(t, "testdata/macos/sysctl-n-machdep.cpu.brand_string.m1pro.txt"), "Apple M1 Pro"},
		{"newline", []byte("Apple M3 Ultra\n"), "Apple M3 Ultra"},
		{"intel", []byte("Intel(R) Core(TM) i9-9880H CPU @ 2.30GHz\n"), "Intel(R) Core(TM) i9-9880H CPU @ 2.30GHz"},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseBrandString(tt.out); got != tt.want {
				t.Errorf("parseBrandString(%q) = %q, want %q", tt.out, got, tt.want)
			}
		})
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

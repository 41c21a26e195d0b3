package scenarios

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// billionLaughs returns a scenario-shaped file whose anchors expand
// 10^levels-fold, padded to about size bytes.
func billionLaughs(levels, size int) []byte {
	var b strings.Builder
	b.WriteString("feature: lol\nvars:\n  L0: &l0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "  L%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("arms: [*l" + fmt.Sprint(levels) + "]\n")
	for b.Len() < size {
		b.WriteString("# padding padding padding padding padding padding padding padding\n")
	}
	return []byte(b.String())
}

// manyAliases reuses one small anchor n times.
func manyAliases(n int) []byte {
	var b strings.Builder
	b.WriteString("feature: lol\nvars:\n  A: &a x\nunmeasured:\n")
	for i := 0; i < n; i++ {
		b.WriteString("  - *a\n")
	}
	return []byte(b.String())
}

func TestAliasBombsRefusedFast(t *testing.T) {
	tests := []struct {
		name, want string
		src        []byte
	}{
		{"billion laughs", "expand this file to more than", billionLaughs(9, 20_000)},
		{"many references", "more than 100 YAML alias references", manyAliases(3000)},
		{"over the size limit", "the limit is 1048576", []byte("feature: x\n" + strings.Repeat("#", MaxScenarioBytes))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, _, err := Parse("bomb.yaml", ".", tt.src, Options{LookupEnv: noEnv})
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "bomb.yaml:") {
				t.Errorf("error without a position: %v", err)
			}
			if took > time.Second {
				t.Errorf("took %v to refuse", took)
			}
			if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 50 {
				t.Errorf("allocated %d MB to refuse", mb)
			}
		})
	}
}

// A few aliases are fine: scenarios may share an args list.
func TestFewAliasesAccepted(t *testing.T) {
	src := strings.Replace(string(mustShipped(t)), `args: ["--spec-type", "none"]`, `args: &classic ["--spec-type", "none"]`, 1)
	src = strings.Replace(src, `args: ["--spec-type", "none"]`, `args: *classic`, 1)
	s, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Arms[1].Args; len(got) != 2 || got[1] != "none" {
		t.Errorf("alias not expanded: %v", got)
	}
}

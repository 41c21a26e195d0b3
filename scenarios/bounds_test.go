package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

func TestTooManyArms(t *testing.T) {
	var arms strings.Builder
	for i := 0; i < 65; i++ {
		fmt.Fprintf(&arms, "  - name: a%d\n    args: [\"--spec-type\", \"none\"]\n", i)
	}
	src := strings.Replace(string(mustShipped(t)), "arms:\n", "arms:\n"+arms.String(), 1)
	_, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "68 arms is more than the limit of 64") {
		t.Errorf("got %v", err)
	}
}

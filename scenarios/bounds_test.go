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

// on_failure: retry:N beyond MaxRetries (or too large to read, which
// retried nothing) is refused at its line; retry:MaxRetries is taken, and
// a stored scenario (offline) is re-read as it ran.
func TestRetriesBounded(t *testing.T) {
	src, err := ShippedSource("llamacpp-speculative-cli")
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(src[:strings.Index(string(src), "on_failure:")]), "\n")
	for _, n := range []string{"11", "100000", "99999999999999999999"} {
		bad := strings.Replace(string(src), `on_failure: "retry:2"`, `on_failure: "retry:`+n+`"`, 1)
		_, _, err := Parse("t.yaml", ".", []byte(bad), Options{LookupEnv: noEnv})
		want := fmt.Sprintf("t.yaml:%d:13: on_failure: \"retry:%s\" retries a slot too often: retry:N takes N from 1 to 10", line, n)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("retry:%s: got %v, want %s", n, err, want)
		}
		if _, _, err := Parse("t.yaml", ".", []byte(bad), Options{Offline: true}); err != nil {
			t.Errorf("retry:%s stored: %v", n, err)
		}
	}
	ok := strings.Replace(string(src), `on_failure: "retry:2"`, `on_failure: "retry:10"`, 1)
	if _, _, err := Parse("t.yaml", ".", []byte(ok), Options{LookupEnv: noEnv}); err != nil {
		t.Errorf("retry:10: %v", err)
	}
}

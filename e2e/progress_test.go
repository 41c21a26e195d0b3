package e2e

import (
	"flag"
	"fmt"
	"io"
	"testing"
	"time"
)

// progress writes a line to w every interval while the suite runs under
// -v (make test runs this package so, its output streamed): how long the
// package has run and how much of its -timeout is left. Between go test's
// own "=== RUN" and "--- PASS (time)" lines, a test of several campaigns
// is never silent for more than interval. stop ends it.
func progress(w io.Writer, interval time.Duration) (stop func()) {
	if !testing.Verbose() {
		return func() {}
	}
	start := time.Now()
	var timeout time.Duration
	if f := flag.Lookup("test.timeout"); f != nil {
		timeout, _ = time.ParseDuration(f.Value.String())
	}
	fmt.Fprintf(w, "e2e: started against %s; timeout %s\n", llamaServer, timeout)
	done := make(chan struct{})
	t := time.NewTicker(interval)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-t.C:
				el := time.Since(start).Round(time.Second)
				if timeout > 0 {
					fmt.Fprintf(w, "e2e: %s elapsed, %s of the timeout left\n", el, (timeout - el).Round(time.Second))
				} else {
					fmt.Fprintf(w, "e2e: %s elapsed\n", el)
				}
			}
		}
	}()
	return func() {
		t.Stop()
		close(done)
		fmt.Fprintf(w, "e2e: finished in %s\n", time.Since(start).Round(time.Second))
	}
}

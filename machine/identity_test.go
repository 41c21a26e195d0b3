package machine

import (
	"context"
	"encoding/json"
	"regexp"
	"runtime"
	"testing"
	"time"
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+$`)

// TestIdentify describes the machine the test runs on. Run with -v to see it.
func TestIdentify(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id, err := Identify(ctx)
	if err != nil {
		t.Errorf("Identify: %v", err)
	}
	b, _ := json.MarshalIndent(id, "", "\t")
	t.Logf("Identify() =\n%s", b)

	if id.Hostname == "" {
		t.Error("Hostname is empty")
	}
	if id.OS != runtime.GOOS {
		t.Errorf("OS = %q, want %q", id.OS, runtime.GOOS)
	}
	if id.Kernel == "" || id.Arch == "" {
		t.Errorf("Kernel = %q, Arch = %q; want both set", id.Kernel, id.Arch)
	}
	if id.Threads < 1 || id.Cores < 1 || id.Cores > id.Threads {
		t.Errorf("Cores = %d, Threads = %d; want 1 <= Cores <= Threads", id.Cores, id.Threads)
	}
	if id.MemoryBytes == 0 {
		t.Error("MemoryBytes = 0")
	}
	for _, g := range id.GPUs {
		if g.Name == "" || g.Driver == "" {
			t.Errorf("GPU %+v lacks name or driver", g)
		}
	}
	if !slugRE.MatchString(id.Slug) {
		t.Errorf("Slug = %q, want [a-z0-9]+", id.Slug)
	}
	if want := Slug(id.CPUModel, id.GPUs); id.Slug != want {
		t.Errorf("Slug = %q, want Slug(CPUModel, GPUs) = %q", id.Slug, want)
	}
}

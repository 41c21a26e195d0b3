package scenarios

import (
	"strings"
	"testing"
)

// Two binaries whose --version builds differ are told apart by the build
// each server reports; the scenario compare builds validates as written.
func TestCompareBuildCounter(t *testing.T) {
	a := CompareArms{
		Base: []string{"base/llama-server", "-m", "m.gguf"}, Head: []string{"head/llama-server", "-m", "m.gguf"},
		BaseVersion: "version: 0.7.0 (build 11669, commit Debian)", HeadVersion: "version: 0.7.1 (build 11700, commit abc)",
	}
	src := string(Compare(a))
	if !strings.Contains(src, "props: build_info") || !strings.Contains(src, `expect: {base: "== b11669", head: "== b11700"}`) {
		t.Errorf("no build counter:\n%s", src)
	}
	if _, _, err := Parse("compare.yaml", ".", []byte(src), Options{Offline: true}); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	// The same build number: nothing known tells them apart.
	a.HeadVersion = a.BaseVersion
	if src := string(Compare(a)); strings.Contains(src, "build_info") || !strings.Contains(src, "allow_unverified:") {
		t.Errorf("same build, yet a build counter:\n%s", src)
	}
}

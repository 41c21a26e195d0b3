package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The fixtures are one real llama-server (Debian's, from
// scripts/install-llama-server.sh) after a request: its /proc/PID/maps and
// lsof -F ftn of the same process, the install's folder renamed.
func TestLoadedObjectsFromRealMapsAndLsof(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "mapped", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	maps := loadedObjects(parseMaps(read("llama-server-debian.maps")))
	lsof := loadedObjects(parseLsof(read("llama-server-debian.lsof")))
	if !slices.Equal(maps, lsof) {
		t.Errorf("maps and lsof disagree:\n%q\n%q", maps, lsof)
	}
	var cpu []string
	for _, p := range maps {
		if strings.HasPrefix(filepath.Base(p), "libggml-cpu-") {
			cpu = append(cpu, filepath.Base(p))
		}
		if strings.HasSuffix(p, ".gguf") || strings.HasSuffix(p, "/llama-server") || strings.Contains(p, "locale") {
			t.Errorf("%s is not a shared object", p)
		}
	}
	if !slices.Equal(cpu, []string{"libggml-cpu-zen4.so"}) {
		t.Errorf("CPU backends mapped: %v, want the one ggml chose", cpu)
	}
	for _, want := range []string{"libggml-base.so.0.27.0", "libllama.so.0.7.0", "ld-linux-x86-64.so.2", "libz.so.1.2.13"} {
		if !slices.ContainsFunc(maps, func(p string) bool { return filepath.Base(p) == want }) {
			t.Errorf("%s missing from %v", want, maps)
		}
	}
}

func TestSharedObjectNames(t *testing.T) {
	for p, want := range map[string]bool{
		"/usr/lib/libggml-cuda.so":                                                          true,
		"/usr/lib/x86_64-linux-gnu/libcublas.so.13.0.2":                                     true,
		"/opt/homebrew/lib/libggml-metal.dylib":                                             true,
		"/venv/lib/python3.12/site-packages/mlx/lib/mlx.metallib":                           true,
		"/System/Library/Extensions/AGXMetalG15X_M1.bundle/Contents/MacOS/AGXMetalG15X_M1":  true,
		"/System/Library/Frameworks/Metal.framework/Versions/A/Metal":                       true,
		"/System/Volumes/Preboot/Cryptexes/OS/System/Library/dyld/dyld_shared_cache_arm64e": true,
		"/models/target.gguf":                           false,
		"/usr/lib/locale/C.utf8/LC_CTYPE":               false,
		"/usr/lib/x86_64-linux-gnu/libfoo.so (deleted)": false,
		"/models/weights.safetensors":                   false,
	} {
		if got := sharedObject.MatchString(p); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

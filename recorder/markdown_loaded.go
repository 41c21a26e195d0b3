package recorder

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// loaded writes the Engine section's account of what each arm's engine
// really loaded (schema.ArmsLoaded): one table per set, the kernel
// libraries first (llama.cpp's and ggml's, the backends among them),
// then the rest; and, where arms loaded different sets, which libraries
// tell them apart.
func (m *mdWriter) loaded(r *schema.Record, sp shortPaths) {
	if len(r.Loaded) == 0 {
		return
	}
	m.ln("Loaded: the shared objects each arm's engine had mapped once ready (read before and after every measured window; every run of an arm loaded the same), beside the candidates above.")
	m.ln("")
	for _, l := range r.Loaded {
		m.p("Loaded by %s:\n\n", backquoted(l.Arms, ", "))
		m.p("| | |\n|---|---|\n")
		libs := slices.Clone(l.Libraries)
		slices.SortStableFunc(libs, func(a, b schema.FileSum) int {
			ka, kb := kernelName(a.Path), kernelName(b.Path)
			switch {
			case ka && !kb:
				return -1
			case kb && !ka:
				return 1
			}
			return 0
		})
		for _, f := range libs {
			what := "Library"
			if backend(f.Path) {
				what = "Backend"
			}
			sum := cellCode(f.SHA256)
			if f.SHA256 == "" {
				sum = "not hashed (deleted or unreadable)"
			}
			m.p("| %s | %s, sha256 %s |\n", what, cellCode(sp.path(f.Path)), sum)
		}
		m.ln("")
	}
	if len(r.Loaded) > 1 {
		m.p("The arms loaded different libraries: %s.\n\n", loadedDifference(r.Loaded))
	}
}

// kernelName is a llama.cpp or ggml library (where the kernels are).
func kernelName(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, "libggml") || strings.HasPrefix(b, "libllama") || strings.HasPrefix(b, "libmtmd") ||
		strings.HasSuffix(b, ".metallib") || strings.HasPrefix(b, "libmlx")
}

// backend is a ggml backend, the code that decodes: libggml-cpu-<variant>,
// libggml-cuda, libggml-metal, libggml-vulkan, …, not libggml-base.
func backend(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, "libggml-") && !strings.HasPrefix(b, "libggml-base")
}

// loadedDifference names, per set, the libraries (by file name and
// sha256) only that set has.
func loadedDifference(sets []schema.ArmsLoaded) string {
	key := func(f schema.FileSum) string { return filepath.Base(f.Path) + " " + short(f.SHA256) }
	count := map[string]int{}
	for _, s := range sets {
		seen := map[string]bool{}
		for _, f := range s.Libraries {
			if k := key(f); !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	var parts []string
	for _, s := range sets {
		var only []string
		for _, f := range s.Libraries {
			if count[key(f)] < len(sets) && !slices.Contains(only, code(key(f))) {
				only = append(only, code(key(f)))
			}
		}
		if len(only) == 0 {
			only = []string{"nothing the others lack"}
		}
		parts = append(parts, backquoted(s.Arms, ", ")+" "+strings.Join(only, ", "))
	}
	return strings.Join(parts, "; ")
}

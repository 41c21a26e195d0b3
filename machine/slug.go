package machine

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// Slug returns the short hardware name that record file names carry, such as
// "h200", "m3ultra" or "gfx1151": lowercase letters and digits only, never
// empty.
//
// The slug names the chip the inference engine runs on, because that is what
// decides decode speed and what people compare:
//
//   - An NVIDIA GPU wins over the CPU. With several, the one with the most
//     memory names the machine (a display card beside a compute card does
//     not), and its model number is kept without vendor, brand, form factor
//     or memory size: "NVIDIA A100-SXM4-80GB" is "a100".
//   - Apple Silicon is named by its SoC: "Apple M1 Ultra" is "m1ultra".
//   - An AMD APU whose brand string names a Radeon iGPU with a known LLVM
//     target is named by that target, since that GPU is what runs the model:
//     "AMD Ryzen AI Max+ 395 w/ Radeon 8060S" is "gfx1151". Other AMD chips
//     are named by family: "epyc", "ryzen".
//   - Intel chips are named by family: "xeon", or "corei9" for Core i9.
//   - Anything else is named by the first word of its CPU model, or
//     "unknown" when there is none.
func Slug(cpuModel string, gpus []schema.GPUInfo) string {
	if g, ok := primaryGPU(gpus); ok {
		if s := gpuSlug(g.Name); s != "" {
			return s
		}
	}
	if s := cpuSlug(cpuModel); s != "" {
		return s
	}
	return "unknown"
}

// primaryGPU returns the GPU with the most memory, the first of equals.
func primaryGPU(gpus []schema.GPUInfo) (schema.GPUInfo, bool) {
	best, ok := schema.GPUInfo{}, false
	for _, g := range gpus {
		if strings.TrimSpace(g.Name) == "" {
			continue
		}
		if !ok || g.MemoryMiB > best.MemoryMiB {
			best, ok = g, true
		}
	}
	return best, ok
}

// gpuBrandWords are words in NVIDIA product names that say who made the
// card or which line it belongs to, not which chip it is.
var gpuBrandWords = map[string]bool{
	"nvidia":  true,
	"tesla":   true,
	"geforce": true,
	"quadro":  true,
}

// gpuVariantWords may follow a model number and change the chip:
// an RTX 4080 SUPER is not an RTX 4080, an RTX 6000 Ada not a Quadro RTX 6000.
var gpuVariantWords = map[string]bool{
	"ti":    true,
	"super": true,
	"ada":   true,
}

// gpuSlug reduces an NVIDIA product name to its model: brand words go, each
// word loses what follows a hyphen (form factor and memory: "-SXM2-16GB"),
// and words after the first one with a digit go ("80GB HBM3", "NVL"),
// unless it is a variant word.
func gpuSlug(name string) string {
	var kept []string
	model := false
	for w := range strings.FieldsSeq(name) {
		w, _, _ = strings.Cut(w, "-")
		lw := strings.ToLower(w)
		switch {
		case w == "" || gpuBrandWords[lw]:
			continue
		case model:
			if gpuVariantWords[lw] {
				kept = append(kept, w)
			}
			return sanitize(strings.Join(kept, ""))
		}
		kept = append(kept, w)
		model = strings.ContainsAny(w, "0123456789")
	}
	return sanitize(strings.Join(kept, ""))
}

// radeonTargets maps the Radeon iGPUs named in AMD APU brand strings to
// their LLVM AMDGPU processor, as listed under "Example Products" in LLVM's
// AMDGPUUsage processor table (llvm/llvm-project#163717, RDNA 3.5 APUs).
// Only iGPUs listed there are here; any other APU is named by CPU family.
var radeonTargets = map[string]string{
	"890m":  "gfx1150", // Strix Point
	"8060s": "gfx1151", // Strix Halo
	"860m":  "gfx1152", // Krackan Point
}

// cpuSlug names a CPU brand string, or returns "" when it has no letters or
// digits at all.
func cpuSlug(model string) string {
	// Trademark marks split words in Intel strings: "Intel(R) Core(TM) i9".
	model = strings.NewReplacer("(R)", " ", "(r)", " ", "(TM)", " ", "(tm)", " ").Replace(model)
	words := strings.Fields(model)
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	if len(words) == 0 {
		return ""
	}
	switch {
	case lower[0] == "apple":
		return appleSlug(lower[1:])
	case lower[0] == "amd":
		if s := amdSlug(lower[1:]); s != "" {
			return s
		}
	default:
		// Newer Intel strings start with the generation:
		// "13th Gen Intel(R) Core(TM) i9-13900K".
		for i, w := range lower {
			if w == "intel" {
				return intelSlug(lower[i+1:])
			}
		}
	}
	return sanitize(words[0])
}

// appleSlug names an Apple chip from the words after "Apple": "M1 Ultra" is
// "m1ultra". A qualifier in parentheses, as in "Apple M4 Max (Virtual)" in a
// macOS VM, is not part of the chip. A name without a chip number, such as
// the "Apple processor" of early Big Sur betas, is "apple".
func appleSlug(words []string) string {
	var kept []string
	for _, w := range words {
		if strings.HasPrefix(w, "(") {
			break
		}
		kept = append(kept, w)
	}
	if len(kept) == 0 || !strings.ContainsAny(kept[0], "0123456789") {
		return "apple"
	}
	return sanitize(strings.Join(kept, ""))
}

// amdSlug names an AMD chip from the words after "AMD", or returns "" when
// it knows none of them.
func amdSlug(words []string) string {
	for i, w := range words {
		if w == "radeon" && i+1 < len(words) {
			if t, ok := radeonTargets[words[i+1]]; ok {
				return t
			}
		}
	}
	for _, w := range words {
		switch w {
		case "epyc", "ryzen":
			return w
		}
	}
	return ""
}

// intelSlug names an Intel chip from the words after "Intel": the family,
// and for Core the tier, which is what separates a desktop from a laptop
// part: "Core i9-9900K" is "corei9", "Core Ultra 7 155H" is "coreultra7",
// "Core 5 120U" is "core5".
func intelSlug(words []string) string {
	if len(words) == 0 {
		return "intel"
	}
	family := sanitize(words[0])
	if family == "" {
		return "intel"
	}
	if family != "core" || len(words) < 2 {
		return family
	}
	tier, _, _ := strings.Cut(words[1], "-")
	switch {
	case len(tier) == 2 && tier[0] == 'i' && isDigit(tier[1]):
		return "core" + tier
	case tier == "ultra" && len(words) > 2 && isDigits(words[2]):
		return "coreultra" + words[2]
	case isDigits(tier):
		return "core" + tier
	}
	return "core"
}

// sanitize lowercases s and keeps only ASCII letters and digits.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

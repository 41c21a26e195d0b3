package recorder

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// shortPaths shows the machine's paths in a record's Markdown relative to
// the repository it ran in, or to ~, so that a record reads the same from
// every clone; the data block keeps them absolute. A record without Places
// (made before them) shows its paths as stored.
type shortPaths struct {
	repo, home string
	// shortCommand: the engine table's Command row is shown short too
	// (a record made since Places.Command; before, as written).
	shortCommand bool
}

func newShortPaths(r *schema.Record) shortPaths {
	if r.Places == nil {
		return shortPaths{}
	}
	return shortPaths{repo: strings.TrimSuffix(r.Places.Repo, "/"), home: strings.TrimSuffix(r.Places.Home, "/"), shortCommand: r.Places.Command}
}

// engineCommand shows an engine's command: short where the record says
// so, else as written.
func (s shortPaths) engineCommand(c string) string {
	if s.shortCommand {
		return s.path(c)
	}
	return c
}

// path shows one path: "." for the repository itself, its relative path
// under it, ~/… under the home folder, else as it is.
func (s shortPaths) path(p string) string {
	switch {
	case s.repo != "" && p == s.repo:
		return "."
	case s.repo != "" && strings.HasPrefix(p, s.repo+"/"):
		return strings.TrimPrefix(p, s.repo+"/")
	case s.home != "" && p == s.home:
		return "~"
	case s.home != "" && strings.HasPrefix(p, s.home+"/"):
		return "~/" + strings.TrimPrefix(p, s.home+"/")
	}
	return p
}

// text shows the paths inside a command-line word (--model=/abs/x, or the
// path itself).
func (s shortPaths) word(w string) string {
	if s.repo == "" && s.home == "" {
		return w
	}
	if k, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(k, "-") {
		return k + "=" + s.path(v)
	}
	return s.path(w)
}

// command shows a command line's words.
func (s shortPaths) command(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = s.word(w)
	}
	return out
}

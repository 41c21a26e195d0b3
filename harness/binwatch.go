package harness

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// At every run start the engine of the arm is resolved again in the
// environment it was identified in (engine.Resolve: PATH, links, a
// wrapper's markers, the loader's search): a link moved (as `brew upgrade`
// moves one), a new binary earlier on PATH, or another library the loader
// would now map fails the run. The run executes the identified path
// itself (engine.Config.Executable), and each identified file is stat'ed:
// only when its size, modification time, change time or inode changed is
// it hashed again, and a different hash fails the run: the binary was
// rebuilt or replaced under the campaign, so the run would not measure
// the identified engine. The change time catches a rewrite in place whose
// modification time was set back.

// The model files the engine command names are watched alike: a model
// rewritten or replaced under the campaign fails the run.

// watchedFile is an engine or model file as it was identified: its hash
// and the file state it had then.
type watchedFile struct {
	// what names the file in an error: "engine file", "model file".
	what   string
	path   string
	sha256 string
	info   os.FileInfo
}

func watch(id schema.EngineInfo) []*watchedFile {
	var out []*watchedFile
	files := [][3]string{{"engine file", id.Path, id.SHA256}, {"engine file", id.RealBinary, id.RealSHA256}}
	for _, l := range id.Libraries {
		files = append(files, [3]string{"engine file", l.Path, l.SHA256})
	}
	for _, m := range id.Models {
		files = append(files, [3]string{"model file", m.Path, m.SHA256})
	}
	for _, f := range files {
		if f[1] == "" || f[2] == "" {
			continue
		}
		fi, err := os.Stat(f[1])
		if err != nil {
			continue
		}
		out = append(out, &watchedFile{what: f[0], path: f[1], sha256: f[2], info: fi})
	}
	return out
}

// unchanged reports whether two states of a file show it untouched: the
// same inode, size, modification and change time. Where the change time
// cannot be read, never: the file is hashed again.
func unchanged(a, b os.FileInfo) bool {
	ca, okA := changeTime(a)
	cb, okB := changeTime(b)
	return okA && okB && ca.Equal(cb) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && os.SameFile(a, b)
}

// check reports whether the file still holds the identified binary.
func (w *watchedFile) check() error {
	fi, err := os.Stat(w.path)
	if err != nil {
		return fmt.Errorf("the %s %s is gone since the campaign started: %v", w.what, w.path, err)
	}
	if unchanged(fi, w.info) {
		return nil
	}
	sum, err := engine.FileSHA256(w.path)
	if err != nil {
		return err
	}
	if sum != w.sha256 {
		what := fmt.Sprintf("the %s %s changed since the campaign started (sha256 %.12s, was %.12s)", w.what, w.path, sum, w.sha256)
		return fmt.Errorf("%s: it was rebuilt or replaced under the campaign, so this run would not measure the engine the record identifies", what)
	}
	w.info = fi // touched, same content
	return nil
}

// check verifies what the engine of arm executes now: the same files as
// when it was identified, each with the same content.
func (es *engineSet) check(arm string) error {
	if es == nil {
		return nil
	}
	i, ok := es.byArm[arm]
	if !ok {
		return nil
	}
	command := es.uses[i].Launch.Binary()
	now, err := engine.Resolve(command, es.envs[i])
	if err != nil {
		return fmt.Errorf("the engine command %q no longer resolves (%v): it changed since the campaign started, so this run would not measure the engine the record identifies", command, err)
	}
	if moved := moved(es.executed[i], now); moved != "" {
		return fmt.Errorf("the engine command %q %s: it changed since the campaign started, so this run would not measure the engine the record identifies", command, moved)
	}
	for _, w := range es.watched[i] {
		if err := w.check(); err != nil {
			return err
		}
	}
	return nil
}

// moved says how what a command executes differs from what it executed
// when it was identified; empty when it does not.
func moved(was, now engine.Executed) string {
	switch {
	case now.Path != was.Path:
		return fmt.Sprintf("now executes %s, not %s (a link was moved, or another binary comes first on PATH)", now.Path, was.Path)
	case now.RealBinary != was.RealBinary:
		return fmt.Sprintf("now runs the wrapped binary %s, not %s", orNone(now.RealBinary), orNone(was.RealBinary))
	case !slices.Equal(now.Libraries, was.Libraries):
		var added, gone []string
		for _, l := range now.Libraries {
			if !slices.Contains(was.Libraries, l) {
				added = append(added, l)
			}
		}
		for _, l := range was.Libraries {
			if !slices.Contains(now.Libraries, l) {
				gone = append(gone, l)
			}
		}
		return fmt.Sprintf("now loads the libraries %s instead of %s (a link was moved, or another library comes first on the loader's path)", orNone(strings.Join(added, ", ")), orNone(strings.Join(gone, ", ")))
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

package harness

import (
	"fmt"
	"os"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// watchedFile is an engine binary as it was identified: its hash and the
// file state it had then. At every run start the file is stat'ed; only when
// its size, modification time or inode changed is it hashed again, and a
// different hash fails the run: the binary was rebuilt or replaced under
// the campaign, so the run would not measure the identified engine.
type watchedFile struct {
	path   string
	sha256 string
	info   os.FileInfo
}

func watch(id schema.EngineInfo) []*watchedFile {
	var out []*watchedFile
	files := [][2]string{{id.Path, id.SHA256}, {id.RealBinary, id.RealSHA256}}
	for _, l := range id.Libraries {
		files = append(files, [2]string{l.Path, l.SHA256})
	}
	for _, f := range files {
		if f[0] == "" || f[1] == "" {
			continue
		}
		fi, err := os.Stat(f[0])
		if err != nil {
			continue
		}
		out = append(out, &watchedFile{path: f[0], sha256: f[1], info: fi})
	}
	return out
}

// check reports whether the file still holds the identified binary.
func (w *watchedFile) check() error {
	fi, err := os.Stat(w.path)
	if err != nil {
		return fmt.Errorf("the engine file %s is gone since the campaign started: %v", w.path, err)
	}
	if fi.Size() == w.info.Size() && fi.ModTime().Equal(w.info.ModTime()) && os.SameFile(fi, w.info) {
		return nil
	}
	sum, err := engine.FileSHA256(w.path)
	if err != nil {
		return err
	}
	if sum != w.sha256 {
		return fmt.Errorf("the engine file %s changed since the campaign started (sha256 %.12s, was %.12s): it was rebuilt or replaced under the campaign, so this run would not measure the engine the record identifies", w.path, sum, w.sha256)
	}
	w.info = fi // touched, same content
	return nil
}

// check verifies the binaries of the engine arm runs.
func (es *engineSet) check(arm string) error {
	if es == nil {
		return nil
	}
	i, ok := es.byArm[arm]
	if !ok {
		return nil
	}
	for _, w := range es.watched[i] {
		if err := w.check(); err != nil {
			return err
		}
	}
	return nil
}

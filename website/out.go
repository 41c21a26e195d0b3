package website

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/decodebench/decodebench/internal/safefs"
)

// Marker is the file that marks a folder as a site this package wrote:
// only such a folder (or an empty one) is written into, and only its
// own subfolders' stale files are removed.
const Marker = ".decodebench-site"

const markerText = "A static site written by decodebench site: the next build rewrites its files and removes the pages of records that are gone.\n"

// The site's subfolders: feature pages, record pages, assets and the
// images copied from the records' data folders.
const (
	featureDir = "f"
	recordDir  = "r"
	assetDir   = "assets"
	imageDir   = "assets/img"
)

// out is the site's folder, held open, and what a build wrote into it.
type out struct {
	d       *safefs.Dir
	mu      sync.Mutex
	kept    map[string]bool // every file of this build, written or unchanged
	written []string
	pages   int
	images  sync.Map // an image's name under imageDir → *copied
}

// openOut creates the site's folder when it is missing and holds it
// open. A folder that holds anything but is not marked as a site is
// refused: nothing of a reader's own is overwritten or removed.
func openOut(dir string) (*out, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d, err := safefs.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		d.Close()
		return nil, err
	}
	if len(ents) > 0 {
		if _, err := d.ReadFile(Marker, 4096); err != nil {
			d.Close()
			return nil, fmt.Errorf("%s holds files but no %s: not a site decodebench wrote; name a new or empty folder", dir, Marker)
		}
	}
	o := &out{d: d, kept: map[string]bool{}}
	// .nojekyll: GitHub Pages served from a branch would leave out the
	// pages whose names start with _ (names).
	for name, b := range map[string][]byte{Marker: []byte(markerText), ".nojekyll": nil} {
		if err := o.write(name, b); err != nil {
			d.Close()
			return nil, err
		}
	}
	for _, sub := range []string{featureDir, recordDir, assetDir, imageDir} {
		if err := d.Mkdir(sub); err != nil {
			d.Close()
			return nil, err
		}
	}
	return o, nil
}

func (o *out) close() { o.d.Close() }

// write writes rel unless it already holds b; every file written in a
// build is kept by prune.
func (o *out) write(rel string, b []byte) error {
	changed, err := o.d.WriteIfChanged(rel, b, 0o644)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.kept[rel] = true
	if changed {
		o.written = append(o.written, rel)
	}
	if strings.HasSuffix(rel, ".html") {
		o.pages++
	}
	return nil
}

// prune removes the files of the site's own subfolders that this build
// did not write: the pages of records that are gone, images no page
// shows. Nothing outside them, and no folder, is removed.
func (o *out) prune() ([]string, error) {
	var removed []string
	for _, sub := range []string{featureDir, recordDir, assetDir, imageDir} {
		ents, err := os.ReadDir(filepath.Join(o.d.Path(), filepath.FromSlash(sub)))
		if err != nil {
			return removed, err
		}
		for _, e := range ents {
			rel := path.Join(sub, e.Name())
			if !e.Type().IsRegular() || o.kept[rel] {
				continue
			}
			if err := o.d.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return removed, err
			}
			removed = append(removed, rel)
		}
	}
	slices.Sort(o.written)
	return removed, nil
}

// Package site writes a static web site of a records folder: a top page
// (the index's rows: feature × hardware, the latest verdict and headline,
// a small trend), a page per feature (its series per hardware and
// scenario as plots with their intervals, verdict markers and steps, the
// steps with the records on either side and the bisect that settled one,
// every record), and a page per record and bisect summary (its Markdown
// as HTML, with its plots).
//
// It reads the folder only through review.ReadFleet, which the index
// uses (recorder's parser, check, history.Build with
// changepoint.Defaults), and embeds each feature's series as
// review.WriteHistoryJSON writes them for `decodebench history --json`:
// it computes nothing of its own. The plots are inline SVG drawn here
// from those values; one script file of the site's own (assets/site.js)
// shows a point's record on hover or focus.
//
// Nothing of a record is executed or trusted: every text is escaped, a
// record's Markdown is rendered without its raw HTML, its links lead only
// to the site's own pages, to the record's anchors or to http(s) pages,
// and its images are the PNG files of its own data folder whose sha256
// the record names, copied into the site. Every page carries a
// Content-Security-Policy that allows scripts, styles and images from the
// site only, and no inline script. The site works from a file:// path,
// a CI artifact and GitHub Pages alike: every asset is in it.
package website

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/review"
)

// Options say what to build.
type Options struct {
	// Dir is the records folder, Out the site's folder: a new or empty
	// folder, or one this package wrote (its marker file is there).
	Dir, Out string
	// Cache keeps check results (see review.CheckCache); nil checks
	// every record afresh.
	Cache *review.CheckCache
	// Progress is told of each record read and checked; nil for nothing.
	Progress review.Progress
	// Regimes, when set, gives a feature's table of rows per hardware,
	// shown on its page when there are several hardware; nil for none.
	Regimes func(feature string, f *review.Fleet) *HardwareTable
}

// Result says what a build did.
type Result struct {
	// Pages is how many HTML pages the site has.
	Pages int
	// Written and Removed are the files written (their bytes changed)
	// and the stale files removed, relative to the site's folder.
	Written, Removed []string
	// Unreadable are the records folder's files that are neither a
	// record nor a bisect summary (listed on the top page).
	Unreadable []review.Unreadable
}

// Build reads the records folder and writes the site. The same records
// give the same bytes; a file is rewritten only when its bytes change,
// and a page of a record that is gone is removed.
func Build(o Options) (*Result, error) {
	d, err := safefs.OpenDir(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("records folder: %w", err)
	}
	d.Close()
	if err := outsideOut(o.Dir, o.Out); err != nil {
		return nil, err
	}
	fleet, err := review.ReadFleetProgress(o.Dir, o.Cache, o.Progress)
	if err != nil {
		return nil, err
	}
	out, err := openOut(o.Out)
	if err != nil {
		return nil, err
	}
	defer out.close()
	names := pageNames(fleet)
	if err := writeAssets(out); err != nil {
		return nil, err
	}
	if err := writeTop(out, o.Dir, fleet, names); err != nil {
		return nil, err
	}
	for _, feature := range fleet.Features {
		var regimes *HardwareTable
		if o.Regimes != nil {
			regimes = o.Regimes(feature, fleet)
		}
		if err := writeFeature(out, fleet, feature, names, regimes); err != nil {
			return nil, fmt.Errorf("feature %s: %w", feature, err)
		}
	}
	if err := writeRecordPages(out, o.Dir, fleet, names); err != nil {
		return nil, err
	}
	removed, err := out.prune()
	if err != nil {
		return nil, err
	}
	return &Result{Pages: out.pages, Written: out.written, Removed: removed, Unreadable: fleet.Unreadable}, nil
}

// outsideOut refuses a site's folder that is the records folder or holds
// it (by file identity, whatever links lead there): the build removes
// every file of the site's folders it did not write, the records it read
// among them.
func outsideOut(dir, out string) error {
	st, err := os.Stat(out)
	if err != nil {
		return nil // made afresh: it holds nothing
	}
	p, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	for {
		if at, err := os.Stat(p); err == nil && os.SameFile(at, st) {
			return fmt.Errorf("--out %s is the records folder %s or holds it: the site's build would remove the records; name a folder outside it", out, dir)
		}
		up := filepath.Dir(p)
		if up == p {
			return nil
		}
		p = up
	}
}

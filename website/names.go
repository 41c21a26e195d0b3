package website

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/decodebench/decodebench/review"
)

// plainName is a file stem that is its page's name as it is: lower case
// only (as a record's name is), so that no two pages differ by case alone
// and overwrite each other where a site is unpacked on a file system that
// folds case (macOS, Windows).
var plainName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,200}$`)

// names are the site's page of each record and bisect summary (by file
// name) and of each feature, relative to the site's folder.
type names struct {
	files    map[string]string
	features map[string]string
}

// pageNames names every page of a fleet. A record's page is named after
// its file; a file whose name is not plain (a lower-case letter or digit,
// then those, dots, dashes and underscores) gets a name of its
// sha256 instead, which no plain name can be: nothing a file is called
// chooses where a page is written.
func pageNames(f *review.Fleet) *names {
	n := &names{files: map[string]string{}, features: map[string]string{}}
	add := func(file string) {
		stem := strings.TrimSuffix(file, ".md")
		if !plainName.MatchString(stem) {
			sum := sha256.Sum256([]byte(file))
			stem = "_" + hex.EncodeToString(sum[:12])
		}
		n.files[file] = recordDir + "/" + stem + ".html"
	}
	for _, feature := range f.Features {
		n.features[feature] = featureDir + "/" + feature + ".html"
		for _, r := range f.Records[feature] {
			add(r.File)
		}
	}
	for _, b := range f.Bisects {
		add(b.File)
	}
	return n
}

// stemPage is the page of a record named by its stem (as history's
// points name them), relative to the site's folder.
func (n *names) stemPage(stem string) string { return n.files[stem+".md"] }

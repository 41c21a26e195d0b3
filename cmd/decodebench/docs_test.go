package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// layoutDoc is the page whose table lists every package directory.
const layoutDoc = "docs/reference/layout.md"

// prose is a documentation file with its fenced blocks and code spans
// blanked (their lines kept), so that what is left is text and links.
func prose(file, src string) string {
	return regexp.MustCompile("``[^`]+``|`[^`\n]+`").ReplaceAllStringFunc(withoutFences(file, src), func(s string) string {
		return strings.Repeat(" ", len(s))
	})
}

// anchors are the anchors GitHub gives a Markdown file's headings: the
// heading lowercased, every character but letters, digits, spaces, - and
// _ dropped, spaces made dashes; a repeat gets -1, -2, …
func anchors(src string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(withoutFences("", src), "\n") {
		h := strings.TrimLeft(l, "#")
		if h == l || !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// The headings' anchors are GitHub's, code spans and all.
func TestAnchors(t *testing.T) {
	src := "# A title\n\n## Sweeps: `matrix`\n\n### Noise anatomy and `schedule.requests`\n\n## Sweeps: `matrix`\n\n```sh\n# not a heading\n```\n"
	got := anchors(src)
	for _, want := range []string{"a-title", "sweeps-matrix", "noise-anatomy-and-schedulerequests", "sweeps-matrix-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] || len(got) != 4 {
		t.Errorf("anchors %v", got)
	}
}

// Every relative link of the README and docs/ leads to a file or folder
// that exists, and a link with an anchor to a heading of that file (or of
// its own file, for #anchor alone). A page moved or a heading reworded
// without its links fails here, with the file and line of the link.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	n := 0
	for _, f := range docFiles(t) {
		text := prose(f, readDoc(t, f))
		for _, m := range link.FindAllStringSubmatchIndex(text, -1) {
			target := text[m[2]:m[3]]
			at := f + ":" + strconv.Itoa(1+strings.Count(text[:m[0]], "\n"))
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(target, "#")
			dest := f
			if file != "" {
				if strings.HasPrefix(file, "/") {
					t.Errorf("%s: %s: an absolute link does not render the same on GitHub and in a clone; make it relative", at, target)
					continue
				}
				dest = path.Join(path.Dir(f), file)
				if _, err := os.Stat(filepath.Join(docRoot, dest)); err != nil {
					t.Errorf("%s: %s leads nowhere: %v", at, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: %s: an anchor into a file that is not Markdown", at, target)
				continue
			}
			if !anchors(readDoc(t, dest))[anchor] {
				t.Errorf("%s: %s: %s has no heading whose anchor is #%s", at, target, dest, anchor)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d relative links in the documentation", n)
	}
}

// packageDirs are the module's package directories, from the root: every
// folder holding a .go file, but testdata and hidden folders (as go list
// ./... sees them).
func packageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(docRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != docRoot && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			rel, _ := filepath.Rel(docRoot, filepath.Dir(p))
			if rel = filepath.ToSlash(rel); !slices.Contains(dirs, rel) {
				dirs = append(dirs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// The layout table lists every package directory of the module, and every
// path it lists exists: a new package without its line fails here.
func TestLayoutListsEveryPackage(t *testing.T) {
	listed := map[string]int{}
	inTable := false
	span := regexp.MustCompile("`([^`]+)`")
	for i, l := range strings.Split(readDoc(t, layoutDoc), "\n") {
		switch {
		case strings.HasPrefix(l, "| path |"):
			inTable = true
		case !strings.HasPrefix(l, "|"):
			inTable = false
		case inTable:
			first, _, _ := strings.Cut(strings.TrimPrefix(l, "|"), "|")
			for _, m := range span.FindAllStringSubmatch(first, -1) {
				listed[strings.TrimSuffix(m[1], "/")] = i + 1
			}
		}
	}
	dirs := packageDirs(t)
	if len(dirs) < 20 || !slices.Contains(dirs, "cmd/decodebench") {
		t.Fatalf("package directories found: %q", dirs)
	}
	for _, d := range dirs {
		if _, ok := listed[d]; !ok {
			t.Errorf("%s: package directory %s is not in the layout table", layoutDoc, d)
		}
	}
	for p, line := range listed {
		if fi, err := os.Stat(filepath.Join(docRoot, p)); err != nil || !fi.IsDir() {
			t.Errorf("%s:%d: %s is not a folder of the repository", layoutDoc, line, p)
		}
	}
}

package main

import (
	"regexp"
	"strings"
	"testing"
)

// The README's excerpt of a record is the top of a committed record
// written now (decodebench/record/v5), verbatim, and its list of the
// sections follows that record's order: it showed an older format, cut
// and rewrapped, and listed the sections in an old order.
func TestReadmeRecordExcerpt(t *testing.T) {
	readme := readDoc(t, "README.md")
	intro := strings.Index(readme, "The top of a real record")
	if intro < 0 {
		t.Fatal("README: no record excerpt")
	}
	link := regexp.MustCompile(`\]\((docs/benchmark_results/[^)]+\.md)\)`).FindStringSubmatch(readme[intro:])
	if link == nil {
		t.Fatal("README: the excerpt names no record")
	}
	rec := readDoc(t, link[1])
	if !strings.Contains(rec, `"schema": "decodebench/record/v5"`) {
		t.Errorf("%s is not a record written now (v5)", link[1])
	}
	blocks := fencedBlocks("README.md", readme[intro:], "text")
	if len(blocks) == 0 || !strings.HasPrefix(rec, blocks[0].text) {
		t.Errorf("README: the excerpt is not the top of %s as written", link[1])
	}
	start := strings.Index(readme, "- Then the sections")
	end := strings.Index(readme[max(start, 0):], "\n\n")
	if start < 0 || end < 0 {
		t.Fatal("README: no list of the sections")
	}
	list, at := strings.Join(strings.Fields(readme[start:start+end]), " "), 0
	for _, h := range regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatch(rec, -1) {
		name := h[1]
		if name == "Data" {
			name = "data block"
		}
		i := strings.Index(list[at:], name)
		if i < 0 {
			t.Errorf("README: the sections list %q out of %s's order, or not at all", h[1], link[1])
			continue
		}
		at += i + len(name)
	}
}

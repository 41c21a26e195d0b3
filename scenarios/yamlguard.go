package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits on what a scenario file may cost to read. Scenarios arrive in pull
// requests from strangers; a few KB of YAML that reuses anchors can expand
// to gigabytes when decoded, so the node tree is measured before anything
// is decoded from it (yaml.v3 expands aliases inside Node.Decode).
const (
	// MaxScenarioBytes bounds a scenario file.
	MaxScenarioBytes = 1 << 20
	// maxAliases bounds the alias references (*name) in one file.
	maxAliases = 100
	// maxExpandedNodes bounds the node count once every alias is expanded.
	maxExpandedNodes = 100_000
)

// parseYAML parses src into a node tree, with syntax errors placed at a
// line, and a column where it is known (locateYAMLError).
func parseYAML(file string, src []byte) (*yaml.Node, *Error) {
	if len(src) > MaxScenarioBytes {
		return nil, &Error{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("scenario file is %d bytes; the limit is %d (1 MiB)", len(src), MaxScenarioBytes)}
	}
	if pos, what, ok := badByte(src); ok {
		// yaml.v3 reports these without a position.
		return nil, &Error{File: file, Pos: pos, Msg: "invalid YAML: " + what}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return &yaml.Node{}, nil // an empty file: the caller says so
	}
	if err == nil {
		// yaml.Unmarshal read the first document and ignored the rest.
		// An empty one (a file ending in "---", or "---" and comments)
		// holds nothing to ignore.
		for {
			var next yaml.Node
			if err = dec.Decode(&next); err != nil {
				break
			}
			if emptyDocument(&next) {
				continue
			}
			pos := Pos{next.Line, next.Column}
			if len(next.Content) > 0 && next.Content[0].Line > 0 {
				pos = Pos{next.Content[0].Line, next.Content[0].Column}
			}
			return nil, &Error{File: file, Pos: pos, Msg: "a second YAML document (after ---): a scenario file holds one; remove it or move it to a file of its own"}
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		pos, msg := locateYAMLError(src, err)
		return nil, &Error{File: file, Pos: pos, Msg: msg}
	}
	return &doc, nil
}

// badByte finds the first byte a YAML text cannot hold: invalid UTF-8 or a
// control character other than tab, newline and carriage return.
func badByte(src []byte) (Pos, string, bool) {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return Pos{line, col}, fmt.Sprintf("byte 0x%02x is not UTF-8 (is this a text file?)", src[i]), true
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r' || r == '\uFEFF' && i == 0:
		case r == '\uFEFF':
			// yaml.v3 misreads a second mark: every key after it lost
			// its first letter ("itle").
			return Pos{line, col}, "a byte order mark (U+FEFF) past the start of the file; save it without", true
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return Pos{line, col}, fmt.Sprintf("control character %U (is this a text file?)", r), true
		}
		i += size
		col++
	}
	return Pos{}, "", false
}

// checkAliases refuses a node tree whose aliases are too many, cyclic, or
// would expand past maxExpandedNodes. It visits each node once (sizes of
// anchored nodes are memoised), so it is linear in the file.
func checkAliases(file string, root *yaml.Node) *Error {
	var (
		aliases int
		size    = map[*yaml.Node]int{}
		onPath  = map[*yaml.Node]bool{}
		fail    *Error
	)
	at := func(n *yaml.Node, format string, args ...any) {
		if fail == nil {
			fail = &Error{File: file, Pos: Pos{n.Line, n.Column}, Msg: fmt.Sprintf(format, args...)}
		}
	}
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		if fail != nil || n == nil {
			return 0
		}
		if s, ok := size[n]; ok {
			return s
		}
		if onPath[n] {
			at(n, "YAML alias refers to a node that contains it (a cycle)")
			return 0
		}
		onPath[n] = true
		defer delete(onPath, n)
		total := 1
		if n.Kind == yaml.AliasNode {
			aliases++
			if aliases > maxAliases {
				at(n, "more than %d YAML alias references (*name): scenarios need few; write the values out", maxAliases)
				return 0
			}
			if n.Alias == nil {
				return 1
			}
			if onPath[n.Alias] {
				at(n, "YAML alias *%s refers to a node that contains it (a cycle)", n.Value)
				return 0
			}
			total += walk(n.Alias)
		} else {
			for _, c := range n.Content {
				if total += walk(c); total > maxExpandedNodes {
					break
				}
			}
		}
		if total > maxExpandedNodes {
			at(n, "YAML aliases expand this file to more than %d nodes: write the values out", maxExpandedNodes)
			return total
		}
		size[n] = total
		return total
	}
	walk(root)
	return fail
}

// emptyDocument reports a document that holds no value: nothing, or an
// untagged null scalar written as nothing.
func emptyDocument(d *yaml.Node) bool {
	if len(d.Content) == 0 {
		return true
	}
	c := d.Content[0]
	return len(d.Content) == 1 && c.Kind == yaml.ScalarNode && c.Value == "" && c.Tag == "!!null" && c.Style == 0
}

package redact

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// YAML returns a redacted copy of a scenario's source: the value of every
// mapping key whose name says it holds a credential, secret flag values and
// header arguments in sequences, the secret forms and known secret values in
// every scalar, key and comment. ${NAME} references stay. Source that needs
// no change comes back byte for byte; otherwise the masked tree is encoded
// again (comments kept), so the result is YAML that loads whatever the
// masks replaced: text is never masked after encoding, where a mask could
// eat a quote or turn a value into a flow sequence. What follows the first
// document (empty documents, their comments) is kept only in source that
// needs no change. Source that is not YAML is redacted as text.
func (r *Redactor) YAML(src []byte) []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return []byte(r.Text(string(src)))
	}
	if !r.yamlNode(&doc, 0) && r.Text(string(src)) == string(src) {
		return src
	}
	// Either the tree changed, or text the first document's tree does not
	// hold (a comment after a second `---`, which the loader takes for an
	// empty document) matches a secret form: the first document is encoded
	// again, without what follows it.
	renameAnchors(&doc, r)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return []byte(r.Text(string(src)))
	}
	enc.Close()
	return buf.Bytes()
}

// yamlNode redacts n in place and reports whether anything changed.
func (r *Redactor) yamlNode(n *yaml.Node, depth int) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	changed := r.yamlComments(n)
	set := func(s *yaml.Node, v string) {
		if v != s.Value {
			s.Value, s.Style, s.Tag, changed = v, yaml.DoubleQuotedStyle, "!!str", true
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			changed = r.yamlNode(c, depth+1) || changed
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			changed = r.yamlComments(k) || changed
			if k.Kind == yaml.ScalarNode {
				// A key is a name, and stays, unless it holds a secret.
				set(k, r.Text(k.Value))
			}
			// A true or false is no secret, and masking it would leave a
			// scenario that no longer loads.
			if v.Kind == yaml.ScalarNode && IsSecretName(k.Value) && v.Value != "" && !isReference(v.Value) && v.ShortTag() != "!!bool" {
				changed = r.yamlComments(v) || changed
				set(v, maskAroundReferences(v.Value))
				continue
			}
			changed = r.yamlNode(v, depth+1) || changed
		}
	case yaml.SequenceNode:
		var args []string
		scalars := true
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				scalars = false
				break
			}
			args = append(args, c.Value)
		}
		if scalars {
			masked, _ := maskArgs(args)
			for i, c := range n.Content {
				changed = r.yamlComments(c) || changed
				set(c, keepReferences(c.Value, r.Text(masked[i])))
			}
			return changed
		}
		for _, c := range n.Content {
			changed = r.yamlNode(c, depth+1) || changed
		}
	case yaml.ScalarNode:
		set(n, keepReferences(n.Value, r.Text(n.Value)))
	case yaml.AliasNode:
		// The anchor it names is redacted where it is defined.
	}
	return changed
}

// yamlComments masks the secrets in n's comments, and drops a tag that
// holds one (the value is then read as what it looks like).
func (r *Redactor) yamlComments(n *yaml.Node) bool {
	changed := false
	for _, c := range []*string{&n.HeadComment, &n.LineComment, &n.FootComment} {
		if m := r.Text(*c); m != *c {
			*c, changed = m, true
		}
	}
	if n.Tag != "" && r.Text(n.Tag) != n.Tag {
		n.Tag, changed = "", true
	}
	if n.Anchor != "" && r.Text(n.Anchor) != n.Anchor {
		changed = true // renamed by renameAnchors
	}
	return changed
}

// renameAnchors gives every anchor whose name holds a secret, and every
// alias to it, a name of its own ("redacted-1"): a mask is no anchor name.
func renameAnchors(doc *yaml.Node, r *Redactor) {
	names := map[string]string{}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > maxDepth {
			return
		}
		if n.Anchor != "" && r.Text(n.Anchor) != n.Anchor {
			if names[n.Anchor] == "" {
				names[n.Anchor] = fmt.Sprintf("redacted-%d", len(names)+1)
			}
			n.Anchor = names[n.Anchor]
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n.Value = n.Alias.Anchor
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
}

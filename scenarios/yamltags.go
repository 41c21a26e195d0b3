package scenarios

import (
	"fmt"
	"reflect"

	"gopkg.in/yaml.v3"
)

// The loader checks what a node says (its Value) and yaml.v3 decodes what
// its tag makes of it: the two agree only for plain keys and the core tags
// a field reads. `!!binary stop` passes the check as "stop" and decodes as
// the bytes its base64 spells; `!!binary cooldown: 3s` and `*name : 5s`
// are keys the check names one way and the decoder another (or drops).

// keyTags are the tags a plain, untagged key may resolve to: yaml.v3
// decodes each into a string as written.
var keyTags = map[string]bool{"!!str": true, "!!int": true, "!!float": true, "!!bool": true}

// plainKeys refuses, at its own line and column, each key of mapping n
// that is not a plain untagged scalar, and takes it and its value out.
func plainKeys(p *problems, key string, n *yaml.Node) {
	keep := n.Content[:0:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if msg := badKey(k); msg != "" {
			p.errs = append(p.errs, &Error{File: p.file, Pos: Pos{k.Line, k.Column}, Key: key, Msg: msg})
			continue
		}
		keep = append(keep, k, n.Content[i+1])
	}
	n.Content = keep
}

func badKey(k *yaml.Node) string {
	switch {
	case k.Kind == yaml.AliasNode:
		return fmt.Sprintf("a key written as the alias *%s: write the key out", k.Value)
	case k.Kind != yaml.ScalarNode:
		return fmt.Sprintf("a key must be a name, not %s", kindName(k))
	case k.Style&yaml.TaggedStyle != 0:
		return fmt.Sprintf("key %q is tagged %s: write the key without a tag", k.Value, k.Tag)
	case !keyTags[k.Tag]:
		return fmt.Sprintf("key %q reads as %s, not a name: quote it, or write another", k.Value, k.Tag)
	}
	return ""
}

// valueTags are the tags a value may carry (!!null is handled before):
// the core ones, whose decoding is what the check reads, and the
// timestamp a plain 2026-01-01 resolves to (decoded as written).
var valueTags = map[string]bool{"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!map": true, "!!seq": true, "!!timestamp": true}

// badTag says what is wrong with the tag of value n of type t: a tag
// outside the core ones (whether written or set by --set), or a written
// one that a text field does not read as text (a string, a duration, a
// choice reads !!str only).
func badTag(n *yaml.Node, t reflect.Type) string {
	tagged := n.Style&yaml.TaggedStyle != 0
	if n.Kind == yaml.AliasNode || !tagged && valueTags[n.Tag] {
		return ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	text := !reflect.PointerTo(t).Implements(nodeCheckerType) &&
		(t.Kind() == reflect.String || reflect.PointerTo(t).Implements(textUnmarshaler))
	if !valueTags[n.Tag] || tagged && (n.Tag == "!!timestamp" || text && n.Tag != "!!str") {
		return fmt.Sprintf("the value is tagged %s, which this field does not read: give it without the tag", n.Tag)
	}
	return ""
}

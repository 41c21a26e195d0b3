package recorder

import (
	"strings"
	"testing"
	"unicode"

	"github.com/decodebench/decodebench/schema"
)

// hidden is engine text holding every kind of format character: a
// bidirectional override and isolates, a zero-width space, tag
// characters and the Arabic letter mark.
const hidden = "ok \u202egnp.exe\u202c \u2066x\u2069 zw[\u200b] tag[\U000E0041\U000E0042] \u061c"

// Format characters an engine or a scenario wrote (in the engine's
// version and problems, the CPU model, a run's error, the title) are
// shown as their \uNNNN in the record's Markdown and in its headline
// (run --github-summary, check --headline), whatever the record's
// version, its data block included (as JSON escapes, reading back the
// same): none reorders or hides what is read around it.
func TestFormatCharactersShownEscaped(t *testing.T) {
	for _, version := range []string{schema.SchemaV2, schema.Schema, schema.SchemaV5} {
		rec := fixedRecord(schema.Inconclusive)
		rec.Schema = version
		rec.Title += " " + hidden
		rec.Engine.Version = "v1 " + hidden
		rec.Engine.Problems = []string{"prob " + hidden}
		rec.Machine.CPUModel = "cpu " + hidden
		rec.Runs[1].Error = "err " + hidden + "\nsecond line " + hidden
		var md, head strings.Builder
		if err := Markdown(&md, rec); err != nil {
			t.Fatal(err)
		}
		if err := Headline(&head, rec, "rec/x-"+hidden+".md"); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"record": md.String(), "headline": head.String()} {
			if i := strings.IndexFunc(out, func(r rune) bool { return unicode.Is(unicode.Cf, r) }); i >= 0 {
				t.Errorf("%s: the %s holds a format character raw: …%s…", version, name, out[max(0, i-40):min(len(out), i+40)])
			}
		}
		for _, want := range []string{`v1 ok \\u202egnp.exe\\u202c \\u2066x\\u2069 zw\[\\u200b\] tag\[\\ue0041\\ue0042\] \\u061c`,
			`cpu ok \\u202egnp`, `prob ok \\u202egnp`, `err ok \\u202egnp`, `second line ok \u202egnp.exe\u202c`} {
			if !strings.Contains(md.String(), want) {
				t.Errorf("%s: the record lacks %s", version, want)
			}
		}
		back, err := Parse(strings.NewReader(md.String()))
		if err != nil || back.Engine.Version != rec.Engine.Version || back.Machine.CPUModel != rec.Machine.CPUModel {
			t.Errorf("%s: the data block does not read back the same: %v", version, err)
		}
		if !strings.Contains(md.String(), `"version": "v1 ok \u202egnp.exe\u202c \u2066x\u2069 zw[\u200b] tag[\udb40\udc41\udb40\udc42] \u061c"`) {
			t.Errorf("%s: the data block does not escape the format characters", version)
		}
		if !strings.Contains(head.String(), `Draft vs classic ok \\u202egnp`) || !strings.Contains(head.String(), "`rec/x-ok \\u202egnp") {
			t.Errorf("%s: the headline does not show the title's and the path's format characters:\n%s", version, head.String())
		}
	}
}

// An @name in a record's text (a title naming @octocat or @org/team) is
// shown in the headline a job summary and a pull request's comment carry
// with a zero-width space's entity after the @, so that it notifies
// nobody; inside a code span, where it is inert, and in the record itself
// it stays as written.
func TestHeadlineMentionsNobody(t *testing.T) {
	rec := fixedRecord(schema.Inconclusive)
	rec.Title += " @octocat @decodebench/team"
	var md, head strings.Builder
	if err := Markdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	if err := Headline(&head, rec, "rec/x@y.md"); err != nil {
		t.Fatal(err)
	}
	h := head.String()
	if strings.Contains(h, "@octocat") || strings.Contains(h, "@decodebench/team") || !strings.Contains(h, "@&#8203;octocat @&#8203;decodebench/team") {
		t.Errorf("the headline's title:\n%s", h)
	}
	if !strings.Contains(h, "`rec/x@y.md`") {
		t.Errorf("the path in its code span changed:\n%s", h)
	}
	if !strings.Contains(md.String(), "@octocat @decodebench/team") {
		t.Error("the record's own title changed")
	}
	for in, want := range map[string]string{"a `@x` b @y": "a `@x` b @&#8203;y", "``@x ` y`` @z": "``@x ` y`` @&#8203;z", "open ` @x": "open ` @&#8203;x"} {
		if got := unmention(in); got != want {
			t.Errorf("unmention(%q) = %q, want %q", in, got, want)
		}
	}
}

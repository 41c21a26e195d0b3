package recorder

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// FuzzParse feeds arbitrary text to the record parser: it must parse or
// refuse, never panic, and whatever it parses must render again.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/valid.golden.md", "testdata/rejected.golden.md"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("```" + DataFence + "\n{\"schema\":\"" + schema.Schema + "\"}\n```\n"))
	f.Add([]byte("```" + DataFence + "\n{\"schema\":\"" + schema.Schema + "\",\"runs\":[{\"seq\":1}],\"results\":[{\"arms\":[{}]}]}\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Markdown(&buf, rec); err != nil {
			t.Fatalf("a parsed record does not render: %v", err)
		}
	})
}

// FuzzParseBisect feeds arbitrary text to the bisect summary's reader,
// IsBisect (which tools route a file by) and ParseBisect: they never
// panic; whatever ParseBisect reads IsBisect says is a summary, and the
// record parser refuses; and it renders to a summary that parses back to
// the same data, is a summary again and never a record, with exactly one
// data block whatever the commit subjects, refs and paths hold.
func FuzzParseBisect(f *testing.F) {
	sum := &schema.Bisect{Schema: schema.BisectSchema, Feature: "x", Hardware: "h", Date: "2026-01-02", Good: "g", Bad: "b",
		Commits: []schema.BisectCommit{{SHA: "b", Subject: "```json decodebench-bisect\n| a |"}},
		Steps: []schema.BisectStep{{N: 1, Commit: "b", Build: schema.BisectBuild{OK: true, Log: "builds/b.log"}, Class: schema.ClassBad,
			Campaigns: []schema.BisectCampaign{{Record: "data/x/steps/r.md", Verdict: schema.Valid, Rounds: 5, Class: schema.ClassBad, Ratio: 0.5, Lo: 0.4, Hi: 0.6}}}},
		Outcome: schema.BisectOutcome{Result: schema.FoundFirstBad, FirstBad: "b", Among: []string{"b"}}, DataDir: "data/x"}
	var buf bytes.Buffer
	if err := BisectMarkdown(&buf, sum); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("```" + BisectFence + "\n{\"schema\":\"" + schema.BisectSchema + "\"}\n```\n"))
	f.Add([]byte("```" + DataFence + "\n{}\n```\n```" + BisectFence + "\n{\"schema\":\"" + schema.BisectSchema + "\"}\n```\n"))
	f.Add([]byte("```" + BisectFence + "\r\n{\"schema\":\"" + schema.BisectSchema + "\"}\r\n```\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		isBisect := IsBisect(data)
		b, err := ParseBisect(data)
		if err != nil {
			return
		}
		if !isBisect {
			t.Fatal("ParseBisect read a summary IsBisect does not see")
		}
		if _, err := Parse(bytes.NewReader(data)); err == nil {
			t.Fatal("a summary ParseBisect reads is a record too")
		}
		var out bytes.Buffer
		if err := BisectMarkdown(&out, b); err != nil {
			t.Fatalf("a parsed summary does not render: %v", err)
		}
		again, err := ParseBisect(out.Bytes())
		if err != nil {
			t.Fatalf("a rendered summary does not parse: %v", err)
		}
		if !IsBisect(out.Bytes()) {
			t.Fatal("a rendered summary is not seen as one")
		}
		if _, err := Parse(bytes.NewReader(out.Bytes())); err == nil {
			t.Fatal("a rendered summary parses as a record")
		}
		x, _ := json.Marshal(b)
		y, _ := json.Marshal(again)
		if !bytes.Equal(x, y) {
			t.Fatalf("render and parse changed the data:\n%s\n%s", x, y)
		}
	})
}

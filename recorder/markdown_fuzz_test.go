package recorder

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// The two fuzz targets below take a record that exercises every section of
// the Markdown (every reason code, a failed run, an identity result, vars,
// GPUs, plots, warnings…), put fuzzed text into every string it holds
// (field values, slice items, map keys and values: titles, arm names,
// engine version, reasons' text, not-measured notes, run errors, identity
// excerpts, …), and check what the issue asks of the renderer and parser.

// codes are every reason code schema defines, read from its reason types'
// Code methods so that a code added later is covered without editing this
// test.
func codes(t testing.TB) []string {
	files, err := filepath.Glob("../schema/reasons_*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\) Code\(\) Code +\{ return "([^"]+)" \}`).FindAllStringSubmatch(string(b), -1) {
			out = append(out, m[1])
		}
	}
	if len(out) < 30 {
		t.Fatalf("found only %d reason codes in schema/reasons_*.go", len(out))
	}
	return out
}

var (
	richOnce sync.Once
	richRecs []*schema.Record
)

// richRecords are records, one per verdict, with something in every
// section.
func richRecords(t testing.TB) []*schema.Record {
	richOnce.Do(func() {
		cs := codes(t)
		for _, v := range []schema.Verdict{schema.Valid, schema.Rejected, schema.Failed, schema.Inconclusive, schema.Unverified, schema.Incomplete} {
			rec := fixedRecord(schema.Valid)
			rec.Verdict = v
			rec.Issue = "#12"
			rec.Scenario.AllowUnverified = "no counter"
			rec.Scenario.Warnings = []string{"warning"}
			rec.Scenario.Vars = []schema.VarInfo{{Name: "A", Value: "1"}, {Name: "B", Value: "2", FromEnv: true}}
			rec.Engine.RealBinary, rec.Engine.RealSHA256 = "/real", "beef"
			rec.Engine.Problems = []string{"problem"}
			rec.Machine.GPUs = []schema.GPUInfo{{Name: "H200", Driver: "550", MemoryMiB: 1 << 17}}
			rec.Method.Resumed = []time.Time{rec.Method.Started.Add(time.Second)}
			rec.Plots = []string{"timeline.png", "timeline.svg"}
			a := &rec.Analysis
			for _, c := range cs {
				var rs schema.Reasons // every field set, in the legacy form
				if err := json.Unmarshal([]byte(`[{"code":"`+c+`","arm":"draft","other":"classic","counter":"drafts","metric":"decode_tok_s","run":1,"round":1,"attempt":2,"n":1,"m":2,"value":0.5,"limit":0.1,"text":"text"}]`), &rs); err != nil {
					t.Fatal(err)
				}
				r := rs[0]
				a.Reasons = append(a.Reasons, r)
				a.Flags = append(a.Flags, r)
				a.Warnings = append(a.Warnings, r)
				a.Unmeasured = append(a.Unmeasured, r)
			}
			arm := schema.IdentityArm{Arm: "draft", Verdict: "DIVERGES", Runs: 2, Diverging: 1, RunA: 1, RunB: 2, TokenIndex: 3, ByteOffset: 4, TokenA: 5, TokenB: 6,
				DifferingTokens: 1, DifferingBytes: 2, ExcerptA: "excerpt a", ExcerptB: "excerpt b", TokensCompared: true, Error: "error"}
			a.Identity = &schema.IdentityResult{Verdict: "DIVERGES", Against: "classic", OnMismatch: "report", Baseline: arm, Arms: []schema.IdentityArm{arm},
				Strip: []string{"^x"}, Stripped: []string{"x"}, Notes: a.Reasons[:3]}
			failed := rec.Runs[len(rec.Runs)-1]
			failed.Seq++
			failed.Error = "engine exited\nlast engine log lines:\nline"
			failed.Log = "logs/run-005.log"
			rec.Runs = append(rec.Runs, failed)
			rec.Analysis.Marks = append(rec.Analysis.Marks, schema.Mark{Seq: failed.Seq})
			rec.Files = []schema.FileSum{{Path: "runs.jsonl", SHA256: "00"}}
			richRecs = append(richRecs, rec)
		}
	})
	return richRecs
}

// substituted deep-copies v, replacing every string (but the schema, the
// verdict and the reason codes, which the renderer switches on) with next().
func substituted(v reflect.Value, next func() string) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.String:
		out.SetString(next())
	case reflect.Pointer:
		if !v.IsNil() {
			out.Set(substituted(v.Elem(), next).Addr())
		}
	case reflect.Interface:
		if !v.IsNil() {
			out.Set(substituted(v.Elem(), next))
		}
	case reflect.Slice:
		if !v.IsNil() {
			out.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
			for i := 0; i < v.Len(); i++ {
				out.Index(i).Set(substituted(v.Index(i), next))
			}
		}
	case reflect.Map:
		if !v.IsNil() {
			out.Set(reflect.MakeMap(v.Type()))
			iter := v.MapRange()
			for iter.Next() {
				out.SetMapIndex(substituted(iter.Key(), next), substituted(iter.Value(), next))
			}
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			out.Set(v)
			break
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			switch {
			case !f.IsExported():
			case f.Name == "Schema" || f.Name == "Verdict" || f.Name == "Rule":
				out.Field(i).Set(v.Field(i))
			default:
				out.Field(i).Set(substituted(v.Field(i), next))
			}
		}
	default:
		out.Set(v)
	}
	return out
}

// fuzzed returns the rich record of the chosen verdict with every string
// replaced by one of the fuzzed values or a hostile mix of them.
func fuzzed(t testing.TB, pick uint8, a, b, c string) *schema.Record {
	return fill(t, pick, hostilePool(a, b, c))
}

func hostilePool(a, b, c string) []string {
	return []string{a, b, c, a + "\n" + b, "\n" + dataFenceStart + "\n" + c + "\n" + dataFenceEnd + "\n", "\n# " + a, "\n~~~\n" + b, "\n<!-- " + c, "\n    ```\n" + a + "\n   ~~~~\n"}
}

// plainFilled is fuzzed's record with "x" for every string that is not
// empty there (an empty string changes what is rendered: a run with an
// empty error is not a failed run).
func plainFilled(t testing.TB, pick uint8, a, b, c string) *schema.Record {
	pool := hostilePool(a, b, c)
	for i, s := range pool {
		if s != "" {
			pool[i] = "x"
		}
	}
	return fill(t, pick, pool)
}

func fill(t testing.TB, pick uint8, pool []string) *schema.Record {
	recs := richRecords(t)
	base := recs[int(pick)%len(recs)]
	i := int(pick) / len(recs)
	next := func() string { i++; return pool[i%len(pool)] }
	return substituted(reflect.ValueOf(base).Elem(), next).Addr().Interface().(*schema.Record)
}

func seeds(f *testing.F) {
	f.Add(uint8(0), "title", "arm", "text")
	f.Add(uint8(7), "```"+DataFence, "{\"schema\":\""+schema.Schema+"\",\"verdict\":\"VALID\"}", "```")
	f.Add(uint8(13), "# heading", "<!-- hidden", "~~~")
	f.Add(uint8(20), "   ```", "<details>", "</details>")
	f.Add(uint8(33), "- ---", "+ ***", "1. ___")
	f.Add(uint8(41), "line\r\nbreak", "\u2028sep\u0085", "\x00\x7f\xff")
	f.Add(uint8(5), "===", "---", "a|b`c")
}

// FuzzMarkdownRoundTrip: whatever the strings in a record, rendering it and
// parsing the Markdown back gives the record (less its runs, which live in
// runs.jsonl), JSON-equal.
func FuzzMarkdownRoundTrip(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, pick uint8, a, b, c string) {
		rec := fuzzed(t, pick, a, b, c)
		var buf bytes.Buffer
		if err := Markdown(&buf, rec); err != nil {
			t.Fatalf("render: %v", err)
		}
		got, err := Parse(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("parse the rendered record: %v", err)
		}
		// Compared as decoded JSON: invalid UTF-8 in the model is stored as
		// U+FFFD, which marshals differently from the same rune read back.
		want, have := jsonValue(t, rec), jsonValue(t, got)
		if !reflect.DeepEqual(want, have) {
			want, _ := json.Marshal(want)
			have, _ := json.Marshal(have)
			i := 0
			for i < min(len(want), len(have)) && want[i] == have[i] {
				i++
			}
			t.Fatalf("parsed data differs from the model at byte %d:\nwant …%.200s\nhave …%.200s", i, want[max(i-100, 0):], have[max(i-100, 0):])
		}
	})
}

// FuzzMarkdownEscaping: no string in a record can add a heading, a fence
// line, an HTML block, a thematic break or a setext underline to the
// Markdown, nor a second data fence: the document's block structure, line
// by line, is the one the same record with plain strings has.
func FuzzMarkdownEscaping(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, pick uint8, a, b, c string) {
		var plain, hostile bytes.Buffer
		if err := Markdown(&plain, plainFilled(t, pick, a, b, c)); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&hostile, fuzzed(t, pick, a, b, c)); err != nil {
			t.Fatalf("render: %v", err)
		}
		want, have := structure(plain.String()), structure(hostile.String())
		if !reflect.DeepEqual(kinds(want), kinds(have)) {
			for i := range max(len(want), len(have)) {
				var w, h blockLine
				if i < len(want) {
					w = want[i]
				}
				if i < len(have) {
					h = have[i]
				}
				if w.kind != h.kind {
					t.Fatalf("block structure differs at its item %d: want %s (%q), have %s at line %d: %q", i, w.kind, w.line, h.kind, h.n, h.line)
				}
			}
		}
		if n := strings.Count("\n"+hostile.String(), "\n"+dataFenceStart+"\n"); n != 1 {
			t.Fatalf("%d data fence lines", n)
		}
	})
}

func jsonValue(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func kinds(ls []blockLine) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.kind)
	}
	return out
}

type blockLine struct {
	kind, line string
	n          int
}

var (
	containerRE = regexp.MustCompile(`^ {0,3}(?:>[ \t]?|[-+*](?:[ \t]+|$)|[0-9]{1,9}[.)](?:[ \t]+|$))`)
	headingRE   = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]|$)`)
	fenceRE     = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	htmlRE      = regexp.MustCompile(`^ {0,3}<[A-Za-z/!?]`)
	breakRE     = regexp.MustCompile(`^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	setextRE    = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`)
)

// structure lists a document's block-level lines that a value could forge:
// headings, fences opening and closing, HTML block starts, thematic breaks,
// setext underlines, each after the list and quote markers in front of it,
// following CommonMark's rules (a fence closes on a line of at least as
// many of its character, indented at most three spaces).
func structure(doc string) []blockLine {
	var out []blockLine
	var fence string
	for n, line := range strings.Split(doc, "\n") {
		if fence != "" {
			t := strings.TrimRight(line, " \t")
			if ind := len(t) - len(strings.TrimLeft(t, " ")); ind <= 3 {
				t = t[ind:]
				if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
					out = append(out, blockLine{"fence-close", line, n + 1})
					fence = ""
				}
			}
			continue
		}
		inner := line
		for {
			loc := containerRE.FindStringIndex(inner)
			if loc == nil || loc[1] == 0 {
				break
			}
			inner = inner[loc[1]:]
		}
		kind := ""
		switch {
		case line == dataFenceStart:
			kind = "data-fence"
			fence = "```"
		case fenceRE.MatchString(inner) && !(inner[strings.IndexAny(inner, "`~")] == '`' && strings.Contains(inner[len(fenceRE.FindString(inner)):], "`")):
			// (a backtick fence's info string holds no backtick)
			kind = "fence"
			fence = fenceRE.FindStringSubmatch(inner)[1]
		case headingRE.MatchString(inner):
			kind = "heading"
		case htmlRE.MatchString(inner):
			kind = "html"
		case breakRE.MatchString(inner):
			kind = "break"
		case setextRE.MatchString(inner):
			kind = "setext"
		}
		if kind != "" {
			out = append(out, blockLine{kind, line, n + 1})
		}
	}
	return out
}

// The structure check itself can fail: it sees a forged heading, fence,
// HTML block and data block.
func TestStructureSeesForgery(t *testing.T) {
	base := "# T\n\n- a\n\n~~~text\n    x\n~~~\n"
	for _, forged := range []string{"- # h", "> ```", "<!-- x", "- ---", "x\n===", dataFenceStart + "\n{}\n```"} {
		doc := strings.Replace(base, "- a", "- a\n"+forged, 1)
		if reflect.DeepEqual(kinds(structure(base)), kinds(structure(doc))) {
			t.Errorf("%q not seen", forged)
		}
	}
	inBlock := strings.Replace(base, "    x", "    ~~~\n    # x", 1)
	if !reflect.DeepEqual(kinds(structure(base)), kinds(structure(inBlock))) {
		t.Errorf("indented lines inside a fence taken for structure: %v", structure(inBlock))
	}
}

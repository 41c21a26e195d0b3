package recorder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A record shows the machine's paths relative to the repository it ran
// in, or under ~, outside its data block, which keeps them absolute, so a
// record reads the same from every clone; a record without Places (made
// before) shows its paths as stored.
func TestPathsRelativeOutsideTheDataBlock(t *testing.T) {
	rec := fixedRecord(schema.Inconclusive)
	rec.Places = &schema.Places{Repo: "/home/ana/src/repo", Home: "/home/ana"}
	rec.Scenario.Path = "/home/ana/src/repo/scenarios/mine.yaml"
	rec.Engine.Path = "/home/ana/src/repo/.cache/llama.cpp/bin/llama-server"
	rec.Engine.RealBinary = "/home/ana/src/repo/.cache/llama.cpp/root/usr/bin/llama-server"
	rec.Engine.RealSHA256 = "beef"
	rec.Engine.SourceDir = "/home/ana/llama.cpp"
	rec.Engine.Libraries = []schema.FileSum{{Path: "/home/ana/src/repo/.cache/llama.cpp/root/usr/lib/libllama.so.0", SHA256: "cafe"}}
	rec.Engine.Models = []schema.ModelFile{{Arg: "/home/ana/src/repo/.cache/models/target.gguf", Path: "/home/ana/src/repo/.cache/models/target.gguf", Bytes: 1, SHA256: "f00d"}}
	rec.Scenario.Arms[0].Command = []string{"/home/ana/src/repo/.cache/llama.cpp/bin/llama-server", "-m", "/home/ana/src/repo/.cache/models/target.gguf", "--lora=/home/ana/loras/x.gguf", "/opt/other"}
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	cut := strings.Index(md, "```json decodebench-record")
	body, data := md[:cut], md[cut:]
	if strings.Contains(body, "/home/ana") {
		for _, l := range strings.Split(body, "\n") {
			if strings.Contains(l, "/home/ana") {
				t.Errorf("an absolute path outside the data block: %s", l)
			}
		}
	}
	for _, want := range []string{
		"| Scenario | `scenarios/mine.yaml`",
		"| Resolved path | `.cache/llama.cpp/bin/llama-server` |",
		"| Wrapped binary | `.cache/llama.cpp/root/usr/bin/llama-server` |",
		"| Source | `~/llama.cpp` at",
		"| Library | `.cache/llama.cpp/root/usr/lib/libllama.so.0`, sha256",
		"`.cache/llama.cpp/bin/llama-server -m .cache/models/target.gguf --lora=~/loras/x.gguf /opt/other",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the record lacks %q", want)
		}
	}
	if !strings.Contains(data, `"path": "/home/ana/src/repo/.cache/llama.cpp/bin/llama-server"`) {
		t.Error("the data block lost the absolute path")
	}
	rec.Places = nil
	buf.Reset()
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| Resolved path | `/home/ana/src/repo/.cache/llama.cpp/bin/llama-server` |") {
		t.Error("a record without places no longer shows its paths as stored")
	}
}

// The engine's command is a path of the machine too: a record made since
// Places.Command shows it short like the others (the demo record's
// Command row showed /work/main/…); one made before, as it was written,
// so that it still renders byte for byte.
func TestEngineCommandRelativeInNewRecords(t *testing.T) {
	rec := fixedRecord(schema.Inconclusive)
	rec.Engine.Command = "/home/ana/src/repo/.cache/llama.cpp/bin/llama-server"
	for _, tc := range []struct {
		places *schema.Places
		want   string
	}{
		{&schema.Places{Repo: "/home/ana/src/repo", Home: "/home/ana", Command: true}, "| Command | `.cache/llama.cpp/bin/llama-server` |"},
		{&schema.Places{Repo: "/home/ana/other", Home: "/home/ana", Command: true}, "| Command | `~/src/repo/.cache/llama.cpp/bin/llama-server` |"},
		{&schema.Places{Repo: "/home/ana/src/repo", Home: "/home/ana"}, "| Command | `/home/ana/src/repo/.cache/llama.cpp/bin/llama-server` |"},
	} {
		rec.Places = tc.places
		var buf bytes.Buffer
		if err := Markdown(&buf, rec); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("places %+v: no %q", *tc.places, tc.want)
		}
	}
}

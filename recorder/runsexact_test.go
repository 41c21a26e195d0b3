package recorder

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// check reads runs.jsonl as every JSON reader does: a line that
// encoding/json reads differently from a reader that matches keys exactly
// and takes the last of a key given twice (jq, Python) is refused; a line
// only laid out differently, or holding a zero field an older decodebench
// wrote, is not.
func TestEachRunExact(t *testing.T) {
	run := schema.Run{Seq: 1, Round: 1, Arm: "b", Metrics: map[string]float64{"decode_tok_s": 70.1}}
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	line := string(b)
	metrics := `"metrics":{"decode_tok_s":70.1}`
	if !strings.Contains(line, metrics) {
		t.Fatalf("the line has no %s: %s", metrics, line)
	}
	for _, tt := range []struct {
		name, line string
		refused    bool
	}{
		{"as written", line, false},
		{"laid out otherwise", "{ " + strings.ReplaceAll(line[1:], ",", " ,\t"), false},
		{"a zero field of an older decodebench", `{"attempt":0,"port":0,"phases":null,` + line[1:], false},
		{"a key in another case beside it", strings.Replace(line, metrics, metrics+`,"Metrics":{"decode_tok_s":104.2}`, 1), true},
		{"a key in another case alone", strings.Replace(line, metrics, `"Metrics":{"decode_tok_s":104.2}`, 1), true},
		{"a map given twice", strings.Replace(line, metrics, `"metrics":{"decode_tok_s":104.2,"ttft_ms":1},`+metrics, 1), true},
		{"a field in another case", strings.Replace(line, `"arm":"b"`, `"arm":"b","ARM":"a"`, 1), true},
	} {
		for _, chunk := range []int{1, runsChunk} { // line by line, and the plain decoder
			_, err := eachRun(strings.NewReader(tt.line+"\n"+line+"\n"), "runs.jsonl", chunk, true, func(schema.Run) error { return nil })
			if refused := err != nil; refused != tt.refused {
				t.Errorf("%s (chunk %d): refused %v (%v), want %v", tt.name, chunk, refused, err, tt.refused)
			}
			if _, err := eachRun(strings.NewReader(tt.line+"\n"+line+"\n"), "runs.jsonl", chunk, false, func(schema.Run) error { return nil }); err != nil {
				t.Errorf("%s (chunk %d): EachRun refused it: %v", tt.name, chunk, err)
			}
		}
	}
}

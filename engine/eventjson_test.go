package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// decoded is what an event gives its reply, read the way the client
// read events before it walked them in place: decoded whole into a map by
// encoding/json. It is the oracle the in-place reading must agree with.
type decoded struct {
	err             string
	text, reasoning string
	ids             []int32
	stop            bool
	final           map[string]any
}

func decodeWhole(data []byte, completion bool) decoded {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return decoded{err: fmt.Sprintf("malformed stream event 1: %v: %s", quoteErr(err), Quote(string(data)))}
	}
	if obj == nil {
		return decoded{}
	}
	if e, ok := obj["error"]; ok {
		b, _ := json.Marshal(e)
		return decoded{err: "engine reported an error: " + Quote(string(b))}
	}
	out := decoded{final: obj}
	if completion {
		out.text, _ = obj["content"].(string)
		arr, _ := obj["tokens"].([]any)
		for _, v := range arr {
			if f, ok := v.(float64); ok {
				if id, ok := tokenID(f); ok {
					out.ids = append(out.ids, id)
				}
			}
		}
		out.stop, _ = obj["stop"].(bool)
		return out
	}
	choices, _ := obj["choices"].([]any)
	for _, c := range choices {
		cm, _ := c.(map[string]any)
		if s, ok := cm["text"].(string); ok {
			out.text += s
		}
		if d, ok := cm["delta"].(map[string]any); ok {
			if s, ok := d["content"].(string); ok {
				out.text += s
			}
			if s, ok := d["reasoning_content"].(string); ok {
				out.reasoning += s
			}
		}
		if fr, ok := cm["finish_reason"].(string); ok && fr != "" {
			out.stop = true
		}
	}
	return out
}

// walked is what the client's in-place reading gives the same event.
func walked(data []byte, d dialect) decoded {
	r := &Response{}
	rp := newReply()
	if err := r.take(d, rp, "data", data, time.Millisecond); err != nil {
		return decoded{err: err.Error()}
	}
	if r.Events != 1 {
		return decoded{err: fmt.Sprintf("%d events", r.Events)}
	}
	out := decoded{text: rp.text.String(), reasoning: rp.reasoning.String(), ids: r.TokenIDs, stop: r.Done}
	if len(rp.final) > 0 {
		out.final = rp.finalReply()
	}
	return out
}

func agree(t *testing.T, data []byte) {
	t.Helper()
	for _, tt := range []struct {
		d          dialect
		completion bool
	}{{completion{}, true}, {completions{}, false}, {chat{}, false}} {
		want, got := decodeWhole(data, tt.completion), walked(data, tt.d)
		if len(want.final) == 0 {
			want.final = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%T reads %q as\n%+v\nencoding/json as\n%+v", tt.d, data, got, want)
		}
	}
}

var eventSeeds = []string{
	`{"content":"a","tokens":[7],"stop":false}`,
	` {"content" : "\u00e9\n\"q\"\\\/\b\f\r\t" , "tokens" : [ 1 , 2.9 , -3, "x", null, 1e2, 3000000000, -0 ] } `,
	`{"content":"\ud83d\ude00 \ud83d x \udc00 \ud83d\u0041","stop":true}`,
	"{\"content\":\"\xff\xfe ok \xe2\x82\"}",
	`{"con\u0074ent":"escaped key","content":"last wins","stop":true,"stop":false}`,
	`{"choices":[{"delta":{"content":"c","reasoning_content":"r"},"finish_reason":null},{"text":"t","finish_reason":"stop"}],"usage":{"completion_tokens":2}}`,
	`{"choices":[1,"x",{"delta":"no"},{"delta":{"content":1}}],"choices":[{"text":"second"}]}`,
	`{"choices":[{"finish_reason":""}]}`,
	`{"error":{"message":"boom","code":500}}`,
	`{"a":1,"error":null}`,
	`{"n":1e400}`,
	`{"n":1e-400,"content":"tiny"}`,
	`{"n":1.5E3,"content":"exp"}`,
	`null`,
	`[1,2]`,
	`"text"`,
	`{"content":"unterminated`,
	`{"deep":{"a":[{"b":"}]\"["}],"c":{}},"tokens":[]}`,
	`{}`,
}

// The in-place reading of an event gives what decoding it whole did:
// text, reasoning, ids, stop, the reply's fields, and the same error.
func TestEventJSONAgrees(t *testing.T) {
	for _, s := range eventSeeds {
		agree(t, []byte(s))
	}
	b, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
		agree(t, []byte(strings.TrimPrefix(ev, "data: ")))
	}
}

// FuzzEventJSON: whatever an engine streams, the in-place reading agrees
// with encoding/json decoding the event whole.
func FuzzEventJSON(f *testing.F) {
	for _, s := range eventSeeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/completion-stream.sse"); err == nil {
		for _, ev := range bytes.Split(bytes.TrimSpace(b), []byte("\n\n")) {
			f.Add(bytes.TrimPrefix(ev, []byte("data: ")))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { agree(t, data) })
}

// Reading a token's event allocates nothing once the reply's buffers
// have grown: its fields' values reuse the room of the earlier event's.
func TestTakeAllocatesNothingPerEvent(t *testing.T) {
	ev := []byte(`{"index":0,"content":"\u00e9a","tokens":[594],"stop":false,"id_slot":-1,"tokens_predicted":2,"tokens_evaluated":5,"timings":{"predicted_ms":1.5}}`)
	chatEv := []byte(`{"choices":[{"index":0,"delta":{"content":"ab","reasoning_content":"c"},"finish_reason":null}],"created":1,"id":"x","object":"chat.completion.chunk"}`)
	for _, tt := range []struct {
		d  dialect
		ev []byte
	}{{completion{}, ev}, {chat{}, chatEv}} {
		r := &Response{Reads: ReadEveryEvent}
		rp := newReply()
		at := time.Millisecond
		take := func() {
			at++
			if err := r.take(tt.d, rp, "data", tt.ev, at); err != nil {
				t.Fatal(err)
			}
		}
		for range 1 << 16 { // grown past what the measured events need
			take()
		}
		if n := testing.AllocsPerRun(1000, take); n != 0 {
			t.Errorf("%T: %v allocations per event", tt.d, n)
		}
	}
}

package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/decodebench/decodebench/schema"
)

// maxGenericBytes (a variable: tests lower it) bounds what readsAlike's generic reading of one line
// may hold (the line's and the run's encoding again, each about the
// line's GenericCost): a line of one-digit token ids held 12 times its
// bytes, of small objects 15 times, where the run itself holds at most
// MemoryPerByte times. A line decodebench writes is compared byte for
// byte, never generically; the generic reading is for a line an older
// decodebench wrote with a field since omitted (a few KB).
var maxGenericBytes int64 = 64 << 20

// readsAlike reports, as an error, where a line of runs.jsonl reads
// differently to a JSON reader that matches keys exactly and takes the
// last of a key given twice (jq, Python, a reviewer's script) than to
// decodebench: encoding/json matches a key to a field ignoring case and
// merges a map given twice, so a line holding "Metrics" beside "metrics"
// showed a reviewer's tools one decode rate and check another. The run
// decodebench read, encoded again, is the line as decodebench writes
// it; a line that is not byte for byte that must read alike as generic
// JSON, where the line may hold more keys than the run only with zero
// values (a field an older decodebench wrote as zero, since omitted).
func readsAlike(line []byte, run *schema.Run) error {
	// Encoded into a comparison, not a copy: an Encoder reuses its
	// buffer, where Marshal copies every run's (outputs of megabytes).
	same := sameLine{line: line}
	if err := json.NewEncoder(&same).Encode(run); err != nil {
		return err
	}
	if same.equal {
		return nil
	}
	if g := GenericCost(line); g > maxGenericBytes {
		return fmt.Errorf("the line is not as decodebench writes it, and reading it as generic JSON to compare would hold about %d bytes, more than %d: refused", g, maxGenericBytes)
	}
	b, err := json.Marshal(run)
	if err != nil {
		return err
	}
	var got, want any
	if err := json.Unmarshal(line, &got); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &want); err != nil {
		return err
	}
	if at, ok := alike(got, want, ""); !ok {
		return fmt.Errorf("%s reads differently to a reader that matches keys exactly (a key in another case, or given twice): the line is not as decodebench writes it", at)
	}
	return nil
}

// alike compares a line read as generic JSON (got) with the run read
// from it encoded again (want), and names the first place they differ.
func alike(got, want any, at string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return orTop(at), false
		}
		keys := make([]string, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, ok := w[k]
			if !ok {
				if !zeroJSON(g[k]) {
					return at + "." + k, false
				}
				continue
			}
			if p, ok := alike(g[k], wv, at+"."+k); !ok {
				return p, false
			}
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				return at + "." + k, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return orTop(at), false
		}
		for i := range w {
			if p, ok := alike(g[i], w[i], fmt.Sprintf("%s[%d]", at, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	if got != want {
		return orTop(at), false
	}
	return "", true
}

func orTop(at string) string {
	if at == "" {
		return "the run"
	}
	return at[1:]
}

// zeroJSON reports a JSON value that encodes a zero: null, false, 0, "",
// [] or {}.
func zeroJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case float64:
		return x == 0
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// sameLine is written one encoded run and its newline (json.Encoder
// writes a value in one call) and says whether that is line.
type sameLine struct {
	line  []byte
	equal bool
}

func (s *sameLine) Write(p []byte) (int, error) {
	s.equal = len(p) == len(s.line)+1 && p[len(s.line)] == '\n' && bytes.Equal(p[:len(s.line)], s.line)
	return len(p), nil
}

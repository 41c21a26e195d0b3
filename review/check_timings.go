package review

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// llama-server prints each request's timings when the request ends
// (print_timing), the numbers its reply's timings object holds, each
// rounded to two decimals:
//
//	prompt eval time =      24.97 ms /     5 tokens (    4.99 ms per token,   200.21 tokens per second)
//	       eval time =     665.79 ms /   128 tokens (    5.24 ms per token,   190.75 tokens per second)
//	draft acceptance = 0.43030 (   71 accepted /   165 generated), mean len =  2.29
//
// the last only where the request drafted. A line may carry the slot's
// "| task N |" prefix, which ties a request's lines together.
var (
	promptEvalRE = regexp.MustCompile(`prompt eval time =\s*(\S+) ms /\s*(\d+) tokens \(\s*(\S+) ms per token,\s*(\S+) tokens per second\)`)
	evalRE       = regexp.MustCompile(`\beval time =\s*(\S+) ms /\s*(\d+) tokens \(\s*(\S+) ms per token,\s*(\S+) tokens per second\)`)
	draftRE      = regexp.MustCompile(`draft acceptance(?: rate)? =\s*\S+ \(\s*(\d+) accepted /\s*(\d+) generated\)`)
	taskRE       = regexp.MustCompile(`\| task (\d+) \|`)
)

// timingBlock is one request's print_timing lines: each timings field
// as printed (a count, or a number to two decimals).
type timingBlock struct {
	task   string
	fields map[string]string
	draft  bool
}

// Fields of llama-server's timings object, in the order it prints them.
var (
	promptFields = []string{"prompt_ms", "prompt_n", "prompt_per_token_ms", "prompt_per_second"}
	evalFields   = []string{"predicted_ms", "predicted_n", "predicted_per_token_ms", "predicted_per_second"}
	draftFields  = []string{"draft_n_accepted", "draft_n"}
)

// timingBlocks reads the window's print_timing blocks in the order the
// engine printed them. ok is false where a redacted line may have hidden
// one of them.
func timingBlocks(lines []string) (blocks []*timingBlock, ok bool) {
	open := func(task string) *timingBlock {
		for i := len(blocks) - 1; i >= 0; i-- {
			if blocks[i].task == task {
				return blocks[i]
			}
		}
		b := &timingBlock{task: task, fields: map[string]string{}}
		blocks = append(blocks, b)
		return b
	}
	for _, l := range lines {
		task := ""
		if m := taskRE.FindStringSubmatch(l); m != nil {
			task = m[1]
		}
		switch m := promptEvalRE.FindStringSubmatch(l); {
		case strings.Contains(l, redact.Mask) && (strings.Contains(l, "eval time") || strings.Contains(l, "draft acceptance")):
			return nil, false
		case m != nil:
			b := &timingBlock{task: task, fields: map[string]string{}}
			blocks = append(blocks, b)
			setFields(b, promptFields, m[1:])
		default:
			if m := evalRE.FindStringSubmatch(l); m != nil {
				setFields(open(task), evalFields, m[1:])
			} else if m := draftRE.FindStringSubmatch(l); m != nil {
				b := open(task)
				setFields(b, draftFields, m[1:])
				b.draft = true
			}
		}
	}
	return blocks, true
}

func setFields(b *timingBlock, names, values []string) {
	for i, n := range names {
		b.fields[n] = values[i]
	}
}

// differs is the first field of stored timings t that the block prints
// otherwise, with what it prints; "" when the block gives t. A count must
// be the printed one; a time or rate must print as the block does (a
// printed nan or inf is a field the reply could not carry as a number);
// a request the block shows no drafting for drafted nothing.
func (b *timingBlock) differs(t map[string]float64) (field, printed string) {
	for _, names := range [][]string{promptFields, evalFields, draftFields} {
		for _, n := range names {
			text, ok := b.fields[n]
			if !ok {
				continue
			}
			v, has := t[n]
			if !printsAs(v, has, text, strings.HasSuffix(n, "_n") || n == "draft_n_accepted") {
				return n, text
			}
		}
	}
	if !b.draft {
		for _, n := range draftFields {
			if t[n] != 0 {
				return n, "no draft acceptance line"
			}
		}
	}
	return "", ""
}

// printsAs reports whether a stored field (has, v) is what llama-server
// printed as text: a count exactly, any other number as %.2f prints it.
func printsAs(v float64, has bool, text string, count bool) bool {
	if count {
		n, err := strconv.ParseInt(text, 10, 64)
		return err == nil && has && v == float64(n)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return !has
	}
	return has && strconv.FormatFloat(v, 'f', 2, 64) == text
}

// timingMismatches holds a server run's stored engine timings to the
// print_timing blocks of its measured window: every measured request's
// (where its requests carry theirs), or the run's, must be what a block
// of its own prints, no two the same block. A window with no block (an
// engine that prints none, or a log level that hides them) says nothing.
func timingMismatches(r schema.Run, lines []string) []string {
	log := termsafe.String(r.Log)
	blocks, ok := timingBlocks(lines)
	if !ok || len(blocks) == 0 {
		return nil
	}
	type stored struct {
		name string
		t    map[string]float64
	}
	all := []stored{{"engine_timings", r.EngineTimings}}
	if perRequestTimings(r.Requests) {
		all = all[:0]
		i := 0
		for _, q := range r.Requests {
			if q.Kind == schema.RequestMeasured {
				i++
				all = append(all, stored{fmt.Sprintf("measured request %d's engine_timings", i), q.EngineTimings})
			}
		}
	}
	used := make([]bool, len(blocks))
	var out []string
	for _, s := range all {
		first := -1
		for j, b := range blocks {
			if used[j] {
				continue
			}
			if first < 0 {
				first = j
			}
			if f, _ := b.differs(s.t); f == "" && s.t != nil {
				used[j], first = true, -2
				break
			}
		}
		switch {
		case first == -2:
		case first == -1:
			out = append(out, fmt.Sprintf("%s match none of the print_timing blocks of its log %s, each another request's", s.name, log))
		case s.t == nil:
			out = append(out, fmt.Sprintf("%s are absent; its log %s prints eval time %s ms / %s tokens", s.name, log, blocks[first].fields["predicted_ms"], blocks[first].fields["predicted_n"]))
		default:
			f, printed := blocks[first].differs(s.t)
			v, has := s.t[f]
			out = append(out, fmt.Sprintf("%s.%s is %s; its log %s prints %s", s.name, f, present(has, v), log, printed))
		}
	}
	return out
}

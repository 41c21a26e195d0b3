package scenarios

import "path/filepath"

// SlotTokens is the most tokens one request may take on every arm's
// llama-server: its context (-c, --ctx-size, LLAMA_ARG_CTX_SIZE) split
// across its slots (-np, --parallel, LLAMA_ARG_N_PARALLEL; one where the
// command gives none), the least over the arms that give a context, less
// the prompt. The prompt (a prompt_file's as loaded) is counted as its
// bytes and a BOS token, which no byte-level tokenizer exceeds (a chat
// template's own tokens are not counted: the bytes of a prompt of words
// overcount its tokens several times over); a prompt_file left unread, as
// a reproduction defers it, counts one.
// ok is false where no arm's command gives a context decodebench can
// read (another engine, llama-server's default context, a variable left
// unresolved as in a stored scenario read offline).
func (s *Scenario) SlotTokens() (tokens int, ok bool) {
	prompt := len(s.Engine.Request.Prompt) + 1
	for _, a := range s.Arms {
		l := s.Launch(a.Name)
		if s.Engine.Preset != "llama.cpp" && filepath.Base(l.Binary()) != "llama-server" {
			continue
		}
		ctx, ctxOK, _ := flagValue(l.Command, l.Env, "LLAMA_ARG_CTX_SIZE", "-c", "--ctx-size")
		if !ctxOK || ctx <= 0 {
			continue
		}
		np, npOK, _ := flagValue(l.Command, l.Env, "LLAMA_ARG_N_PARALLEL", "-np", "--parallel")
		if !npOK || np < 1 {
			np = 1
		}
		if t := max(0, ctx/np-prompt); !ok || t < tokens {
			tokens, ok = t, true
		}
	}
	return tokens, ok
}

package scenarios

import (
	"strings"
	"testing"
)

func TestNonLoopbackBindWarns(t *testing.T) {
	env := map[string]string{"BIND": "0.0.0.0", "LOCAL": "127.0.0.1"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		host string // replaces `"--host", "127.0.0.1"` in the command
		env  string // added under engine:
		warn string // the key warned about, "" for none
	}{
		{host: `"--host", "${BIND}"`, warn: "engine.command[3]"},
		{host: `"--host=::"`, warn: "engine.command[3]"},
		{host: `"--host=0.0.0.0:8080"`, warn: "engine.command[3]"},
		{host: `"--bind-address", "10.1.2.3"`, warn: "engine.command[3]"},
		{host: `"--listen", "example.org"`, warn: "engine.command[3]"},
		{host: `"-H", "0.0.0.0"`, warn: "engine.command[3]"},
		{host: `"--host", ""`, warn: "engine.command[3]"},
		{env: "  env: {LLAMA_ARG_HOST: 0.0.0.0}\n", warn: "engine.env.LLAMA_ARG_HOST"},
		{env: "  env: {HOST: \"::\"}\n", warn: "engine.env.HOST"},
		{env: "  env: {OLLAMA_HOST: \"0.0.0.0:11434\"}\n", warn: "engine.env.OLLAMA_HOST"},
		{host: `"-H", "Authorization: Bearer x"`},
		{host: `"--host", "${LOCAL}"`},
		{host: `"--host", "localhost"`},
		{host: `"--host=[::1]:8080"`},
		{host: `"--host", "::1"`},
		{env: "  env: {LLAMA_ARG_HOST: 127.0.0.1, GHOST_STORY: 0.0.0.0}\n"},
	}
	for _, tt := range tests {
		src := string(mustShipped(t))
		if tt.host != "" {
			src = strings.Replace(src, `"--host", "127.0.0.1"`, tt.host, 1)
		}
		src = strings.Replace(src, "engine:\n", "engine:\n"+tt.env, 1)
		s, warns, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: lookup})
		if err != nil || s == nil {
			t.Errorf("%s%s: refused: %v", tt.host, tt.env, err)
			continue
		}
		var got []string
		for _, w := range warns {
			if strings.Contains(w.Msg, "not a loopback address") {
				got = append(got, w.Key)
			}
		}
		switch {
		case tt.warn == "" && len(got) > 0:
			t.Errorf("%s%s: unexpected warning at %v", tt.host, tt.env, got)
		case tt.warn != "" && (len(got) != 1 || got[0] != tt.warn):
			t.Errorf("%s%s: warnings at %v, want one at %s", tt.host, tt.env, got, tt.warn)
		}
	}
}

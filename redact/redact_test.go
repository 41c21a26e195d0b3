package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestIsSecretName(t *testing.T) {
	for _, n := range []string{"api-key", "--api-key", "hf_token", "HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "SMTP_PASS",
		"MYSQL_PASSWD", "PROXY_AUTH", "AUTHORIZATION", "DATABASE_URL", "SENTRY_DSN", "SESSION_COOKIE", "apiKey", "authToken",
		"X-Api-Key", "bearer", "GITHUB_CREDENTIALS", "ssl-key-file", "accesstoken",
		// Numbered names (a review saw each in clear in a record).
		"API_KEY2", "HF_TOKEN2", "DB_PASSWORD1", "SECRET2", "ACCESS_TOKEN2", "--api-key2", "LLAMA_API_KEY2", "BACKUP_PASSWORD1"} {
		if !IsSecretName(n) {
			t.Errorf("%q not taken for a secret name", n)
		}
	}
	for _, n := range []string{"max_tokens", "n-tokens", "port", "model", "alias", "draft-max", "keep", "AUTHOR", "ctx-size", "OMP_NUM_THREADS", "kv-unified", "tokenizer",
		"max_tokens2", "layer2", "n-gpu-layers", "bf16", "gpu2"} {
		if IsSecretName(n) {
			t.Errorf("%q taken for a secret name", n)
		}
	}
}

func TestArgsForms(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"srv --api-key s3cretvalue --port 1", "srv --api-key [redacted] --port 1"},
		{"srv --api-key=s3cretvalue --port 1", "srv --api-key=[redacted] --port 1"},
		{"srv -api-key abc", "srv -api-key [redacted]"},
		{"srv --hf-token=ab", "srv --hf-token=[redacted]"},
		// llama.cpp's short name of --hf-token (a review saw it in clear
		// on the console, a value without hf_'s form).
		{"srv -hft shortflagvalue22 --port 1", "srv -hft [redacted] --port 1"},
		{"srv --db-password pw --threads 2", "srv --db-password [redacted] --threads 2"},
		{"srv --bearer tok123", "srv --bearer [redacted]"},
		{"srv --credential-file /run/c", "srv --credential-file [redacted]"},
		// A bool flag with a secret name does not swallow the next flag.
		{"srv --no-auth --port 1", "srv --no-auth --port 1"},
		{"srv --max-tokens 12 -n 5", "srv --max-tokens 12 -n 5"},
		{"srv --api-key ${KEY}", "srv --api-key ${KEY}"},
	} {
		got := strings.Join(New(Source{}).Args(strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   []string
		want []string
	}{
		{[]string{"curl", "-H", "Authorization: Bearer abc.def"}, []string{"curl", "-H", "Authorization: [redacted]"}},
		{[]string{"curl", "--header", "X-Api-Key: k1"}, []string{"curl", "--header", "X-Api-Key: [redacted]"}},
		{[]string{"curl", "--header=Cookie: sid=77"}, []string{"curl", "--header=Cookie: [redacted]"}},
		{[]string{"curl", "--header", "X-Api-Key:", "k1k1"}, []string{"curl", "--header", "X-Api-Key:", "[redacted]"}},
		{[]string{"curl", "-H", "Accept: text/plain"}, []string{"curl", "-H", "Accept: text/plain"}},
		{[]string{"srv", "--alias", "https://u:pw@h/x"}, []string{"srv", "--alias", "https://u:[redacted]@h/x"}},
		{[]string{"srv", "--url=postgres://tok@db/x"}, []string{"srv", "--url=postgres://[redacted]@db/x"}},
		{[]string{"srv", "--endpoint", "http://h/x?api_key=zz&x=1"}, []string{"srv", "--endpoint", "http://h/x?api_key=[redacted]&x=1"}},
		// curl's user:password, as an argument vector; other commands' -u.
		{[]string{"curl", "-u", "alice:Zq8vLm3n", "https://h"}, []string{"curl", "-u", "alice:[redacted]", "https://h"}},
		{[]string{"/usr/bin/curl", "-fsS", "--user=alice:pa55-word"}, []string{"/usr/bin/curl", "-fsS", "--user=alice:[redacted]"}},
		{[]string{"curl", "-ualice:pw123456", "https://h"}, []string{"curl", "-ualice:[redacted]", "https://h"}},
		{[]string{"curl", "-U", "proxy:pr0xy-pw", "https://h"}, []string{"curl", "-U", "proxy:[redacted]", "https://h"}},
		{[]string{"curl", "-u", "alice", "https://h"}, []string{"curl", "-u", "alice", "https://h"}},
		{[]string{"curl", "-u", "u:${TOKEN}", "https://h"}, []string{"curl", "-u", "u:${TOKEN}", "https://h"}},
		{[]string{"docker", "run", "-u", "root:root", "img"}, []string{"docker", "run", "-u", "root:root", "img"}},
		{[]string{"date", "-u", "+%H:%M"}, []string{"date", "-u", "+%H:%M"}},
		{[]string{"serve", "--model", "/models/curl", "-U", "ui:config"}, []string{"serve", "--model", "/models/curl", "-U", "ui:config"}},
		{[]string{"curl", "-su", "alice:comb1234", "https://h"}, []string{"curl", "-su", "alice:[redacted]", "https://h"}},
		{[]string{"curl", "-u", "alice:it's", "https://h"}, []string{"curl", "-u", "alice:[redacted]", "https://h"}},
		{[]string{"timeout", "5", "curl", "-u", "a:pw12345"}, []string{"timeout", "5", "curl", "-u", "a:[redacted]"}},
		{[]string{"sudo", "-u", "postgres:postgres", "psql"}, []string{"sudo", "-u", "postgres:postgres", "psql"}},
		{[]string{"curl", "-u", "${U:-ci}:${P}", "h"}, []string{"curl", "-u", "${U:-ci}:${P}", "h"}},
		{[]string{"sudo", "--user", "curl", "docker", "run", "-u", "root:rootgroup"}, []string{"sudo", "--user", "curl", "docker", "run", "-u", "root:rootgroup"}},
	} {
		got := New(Source{}).Args(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEnvNames(t *testing.T) {
	env := map[string]string{"HF_TOKEN": "x", "OMP_NUM_THREADS": "2", "AWS_SECRET_ACCESS_KEY": "y", "PROXY_AUTH": "a",
		"AUTHORIZATION": "Bearer zz", "SMTP_PASS": "p", "MYSQL_PASSWD": "p", "DATABASE_URL": "postgres://db/x", "SENTRY_DSN": "d",
		"SESSION_COOKIE": "c", "OTHER_URL": "http://u:pw@h/"}
	got := New(Source{}).Env(env)
	for k, v := range got {
		want := Mask
		switch k {
		case "OMP_NUM_THREADS":
			want = "2"
		case "OTHER_URL":
			want = "http://u:[redacted]@h/"
		}
		if v != want {
			t.Errorf("%s=%q, want %q", k, v, want)
		}
	}
}

// Every secret found by its form is masked wherever it appears again.
func TestTextMasksLearnedValues(t *testing.T) {
	r := New(Source{
		Commands: [][]string{{"srv", "--api-key", "k-space-1", "--token=k-eq-2", "-H", "Authorization: Bearer k-hdr-3", "--alias", "https://u:k-url-4@h/"}},
		Envs:     []map[string]string{{"MY_AUTH": "k-env-5", "DATABASE_URL": "k-db-6"}},
		Vars:     map[string]string{"API_SECRET": "k-var-7", "MODEL": "m.gguf", "N": "1"},
	})
	line := "loaded k-space-1 k-eq-2 k-hdr-3 k-url-4 k-env-5 k-db-6 k-var-7 from m.gguf with 1 slot"
	got := r.Text(line)
	for _, s := range []string{"k-space-1", "k-eq-2", "k-hdr-3", "k-url-4", "k-env-5", "k-db-6", "k-var-7"} {
		if strings.Contains(got, s) {
			t.Errorf("%s left in %q", s, got)
		}
	}
	if !strings.Contains(got, "m.gguf with 1 slot") {
		t.Errorf("a value that is no secret was masked: %q", got)
	}
	// Short secrets are masked by form only: "1" is not every digit.
	if r := New(Source{Vars: map[string]string{"KEY": "1"}}); r.Text("run 1 of 12") != "run 1 of 12" {
		t.Errorf("a one-character secret masked digits: %q", r.Text("run 1 of 12"))
	}
}

// A secret of several lines (a PEM key in an environment variable) is
// masked line by line: a log is redacted a line at a time, and the whole
// value never appears in one.
func TestSecretOfSeveralLines(t *testing.T) {
	key := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\r\nQWERTYUIOPasdfghjkl123\nabc\n-----END PRIVATE KEY-----\n"
	r := New(Source{Envs: []map[string]string{{"SERVICE_ACCOUNT_KEY": key}}})
	for _, line := range strings.Split(key, "\n") {
		line = strings.TrimSpace(line)
		got := r.Text("engine: " + line)
		if len(line) >= MinLineLen && strings.Contains(got, line) {
			t.Errorf("a line of the secret left in %q", got)
		}
	}
	if got := r.Text("run abc of 3"); got != "run abc of 3" {
		t.Errorf("a line shorter than MinLineLen masked alone: %q", got)
	}
}

func TestTextForms(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"start: srv --api-key abc --port 8", "start: srv --api-key [redacted] --port 8"},
		{"start: srv --api-key=abc", "start: srv --api-key=[redacted]"},
		{`curl -H "Authorization: Bearer abc" x`, `curl -H "Authorization: [redacted]" x`},
		{"token is Bearer abc.def", "token is Bearer [redacted]"},
		{"open postgres://me:pw@db:5432/x failed", "open postgres://me:[redacted]@db:5432/x failed"},
		{"env HF_TOKEN=abc OMP=1", "env HF_TOKEN=[redacted] OMP=1"},
		{"n_tokens=12 n_keep=0 tokens: 5", "n_tokens=12 n_keep=0 tokens: 5"},
		{"decode_tok_s 12.5, max tokens: 64, first-token latency", "decode_tok_s 12.5, max tokens: 64, first-token latency"},
		// A reference names a secret but is none, whole or cut at its brace.
		{"title {key=${API_KEY}} and API_KEY=${API_KEY}x", "title {key=${API_KEY}} and API_KEY=${API_KEY}x"},
		{"API_KEY=${API_KEY} --api-key ${KEY}", "API_KEY=${API_KEY} --api-key ${KEY}"},
		{"API_KEY=${API_KEY abc", "API_KEY=[redacted] abc"},
		// Settings echoed at start-up: a JSON or Python dict, YAML, INI.
		{`settings: {"password": "hunter2 hunter2", "aws_secret_access_key": "wJalrX", "port": "8"}`,
			`settings: {"password": "[redacted]", "aws_secret_access_key": "[redacted]", "port": "8"}`},
		{`non-default args: {'api_key': 'vllmsecret', 'model': 'm'}`, `non-default args: {'api_key': '[redacted]', 'model': 'm'}`},
		{"api_key: vllmsecretvalue123", "api_key: [redacted]"},
		{"hf_token = svctokenABC123xyz", "hf_token = [redacted]"},
		// A bare generic word is no setting's name: decodebench's own JSON.
		{`{"key":"engine.command","message":"required"}`, `{"key":"engine.command","message":"required"}`},
		{"token = svctokenABC123xyz", "token = svctokenABC123xyz"},
		// ... but not a number or a short value a secret name precedes.
		{"print_info: EOS token        = 2 '</s>'", "print_info: EOS token        = 2 '</s>'"},
		{"cache key: 12345678901, token = abc", "cache key: 12345678901, token = abc"},
		// A pre-signed URL's signature.
		{"GET https://b.s3.amazonaws.com/m.gguf?X-Amz-Credential=AKIA&X-Amz-Signature=9f86d081884c7d65&x=1",
			"GET https://b.s3.amazonaws.com/m.gguf?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&x=1"},
		{"https://a.blob.core.windows.net/c/m.gguf?sv=2022&sig=Zm9vYmFy%3D&se=2027", "https://a.blob.core.windows.net/c/m.gguf?sv=2022&sig=[redacted]&se=2027"},
	} {
		if got := (*Redactor)(nil).Text(tt.in); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
		if got := (*Redactor)(nil).Text(tt.want); got != tt.want {
			t.Errorf("not idempotent: %q -> %q", tt.want, got)
		}
	}
}

func TestWalkAndJSON(t *testing.T) {
	type inner struct{ Note string }
	type rec struct {
		Error   string
		Lines   []string
		Env     map[string]string
		Results map[string]inner
		Any     any
		Ptr     *inner
		N       float64
		private string
	}
	r := New(Source{Vars: map[string]string{"TOKEN": `q"uote<secret>`}})
	v := rec{Error: "e " + `q"uote<secret>`, Lines: []string{"a q\"uote<secret>"}, Env: map[string]string{"K": `q"uote<secret>`},
		Results: map[string]inner{"x": {Note: `q"uote<secret>`}}, Any: `q"uote<secret>`, Ptr: &inner{Note: `q"uote<secret>`}, N: 1234, private: `q"uote<secret>`}
	r.Walk(&v)
	v.private = ""
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), "uote") {
		t.Errorf("secret left after Walk: %s", b)
	}
	// The JSON-escaped form of a secret is masked in JSON text too.
	raw, _ := json.Marshal(map[string]string{"e": `q"uote<secret>`})
	if got := r.Text(string(raw)); strings.Contains(got, "uote") || !json.Valid([]byte(got)) {
		t.Errorf("JSON text: %s", got)
	}
}

func TestYAML(t *testing.T) {
	src := `# the key is sk-comment-secret
feature: x
vars:
  API_TOKEN: sk-var-secret
  MODEL_DIR: /models
engine:
  command: [llama-server, --port, "${PORT}", --api-key, sk-arg-secret, "--hf-token=sk-eq-secret"]
  env:
    DATABASE_URL: postgres://u:sk-db-secret@h/x
    OMP_NUM_THREADS: "2"
arms:
  - name: a
    args: [--alias, "https://u:sk-url-secret@h/", --api-key, "${API_TOKEN}", -H, "Authorization: Bearer sk-hdr-secret"]
`
	r := New(Source{Secrets: []string{"sk-comment-secret"}})
	out := string(r.YAML([]byte(src)))
	for _, s := range []string{"sk-comment-secret", "sk-var-secret", "sk-arg-secret", "sk-eq-secret", "sk-db-secret", "sk-url-secret", "sk-hdr-secret"} {
		if strings.Contains(out, s) {
			t.Errorf("%s left in the stored scenario:\n%s", s, out)
		}
	}
	for _, keep := range []string{"/models", "${API_TOKEN}", "${PORT}", "OMP_NUM_THREADS", "# the key is"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%s lost from the stored scenario:\n%s", keep, out)
		}
	}
	// A boolean under a secret-sounding name is kept: masking it would
	// leave a stored scenario that no longer loads.
	flags := "feature: x\nauth_required: true\nsend_token: false\nauth_mode: \"true-ish\"\n"
	got := string(r.YAML([]byte(flags)))
	if !strings.Contains(got, "auth_required: true") || !strings.Contains(got, "send_token: false") || strings.Contains(got, "true-ish") {
		t.Errorf("booleans under secret names:\n%s", got)
	}
	clean := "feature: x\nvars:\n  MODEL_DIR: /models # where\n"
	if got := string(r.YAML([]byte(clean))); got != clean {
		t.Errorf("a scenario without secrets changed:\n%s", got)
	}
	// Comments after two empty documents belong to no node of the first:
	// they came back byte for byte, tokens and all (a review's find).
	for _, tail := range []string{"---\n---\n# mirror token: hf_Qw7eRt9yUi2oPa4sDf6gHj8kLz1xCv3bNm\n# GH_PAT=ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z1234\n",
		"---\n---\n---\n# password: hunter2hunter2\n"} {
		got := string(r.YAML([]byte(clean + tail)))
		for _, s := range []string{"hf_Qw7eRt9", "ghp_Ab3dEf6", "hunter2"} {
			if strings.Contains(got, s) {
				t.Errorf("%s left after empty documents:\n%s", s, got)
			}
		}
		if !strings.Contains(got, "MODEL_DIR: /models") {
			t.Errorf("the first document lost:\n%s", got)
		}
	}
	if got := string(r.YAML([]byte(clean + "---\n---\n# a note\n"))); got != clean+"---\n---\n# a note\n" {
		t.Errorf("empty documents without secrets changed:\n%s", got)
	}
}

// Well-known credential formats are masked by their value wherever they
// are, whatever names them: an environment entry of an innocent name, a
// bare argument, a scalar of the scenario, a line of a log; and learned,
// so that the same value is masked again elsewhere.
func TestTokenFormatsByValue(t *testing.T) {
	tokens := map[string]string{
		"GitHub classic":      "ghp_" + strings.Repeat("aB3", 12),
		"GitHub OAuth":        "gho_" + strings.Repeat("x9Z", 12),
		"GitHub fine-grained": "github_pat_11ABCDEFG0" + strings.Repeat("q_W8", 10),
		"Hugging Face":        "hf_" + strings.Repeat("Qw7", 11) + "e",
		"Hugging Face, short": "hf_FAKEtoken123456",
		"GitHub, short":       "ghp_FAKEtoken123456",
		"OpenAI, short":       "sk-FAKEtoken123456",
		"OpenAI":              "sk-" + strings.Repeat("Tz4", 16),
		"OpenAI project":      "sk-proj-" + strings.Repeat("a_B-9", 8),
		"Anthropic":           "sk-ant-api03-" + strings.Repeat("Kx_7", 10),
		"AWS access key id":   "AKIA" + "IOSFODNN7EXAMPLE",
		"AWS session key id":  "ASIA" + "Y34FZKBOKMUTVV7A",
		"JWT":                 "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"GitLab":              "glpat-" + strings.Repeat("Ab1_", 6),
		"Groq":                "gsk_" + strings.Repeat("Wq8z", 13),
		"NVIDIA API catalog":  "nvapi-" + strings.Repeat("aB3-x", 12),
		"Slack":               "xoxb-1234567890-" + strings.Repeat("Ab3", 6),
		"Google API key":      "AIza" + strings.Repeat("Sy9_z", 7),
		"Stripe":              "sk_live_" + strings.Repeat("4eC3", 6),
		"Slack webhook":       "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/" + strings.Repeat("xY9", 8),
		"Discord webhook":     "https://discord.com/api/webhooks/123456789012345678/" + strings.Repeat("Ab_9-", 12),
	}
	for form, tok := range tokens {
		r := New(Source{Envs: []map[string]string{{"GH_PAT_X": "x", "HF_HUB": tok}}})
		if got := r.Env(map[string]string{"HF_HUB": tok})["HF_HUB"]; got != Mask {
			t.Errorf("%s as HF_HUB's value: %q", form, got)
		}
		if got := strings.Join(New(Source{}).Args([]string{"srv", tok, "--model=" + tok}), " "); strings.Contains(got, tok) {
			t.Errorf("%s in a command line: %q", form, got)
		}
		for _, text := range []string{tok, "token " + tok + ".", `{"k":"` + tok + `"}`, "(" + tok + ")", "x=" + tok} {
			if got := New(Source{}).Text(text); strings.Contains(got, tok) {
				t.Errorf("%s in %q: %q", form, text, got)
			}
		}
		// Learned from the environment: masked where no form shows it,
		// as part of a longer word.
		if got := r.Text("log: " + tok + "trailing"); strings.Contains(got, tok) {
			t.Errorf("%s not learned: %q", form, got)
		}
		y := string(New(Source{}).YAML([]byte("engine:\n  env:\n    HF_HUB: " + tok + "\n  command: [srv, " + tok + "]\n# " + tok + "\n")))
		if strings.Contains(y, tok) {
			t.Errorf("%s in a scenario:\n%s", form, y)
		}
	}
	// GH_PAT is a secret by its name too, whatever its value.
	if got := New(Source{}).Env(map[string]string{"GH_PAT": "plainvalue"})["GH_PAT"]; got != Mask {
		t.Errorf("GH_PAT's value: %q", got)
	}
	// Words, paths and hashes that merely start like a token stay.
	for _, s := range []string{
		"/models/hf_cache_directory/target.gguf", "task-abcdefghijklmnopqrstuvwxyz0123", "sk-short", "ghp_short",
		"disk-0123456789abcdefghijklmnop", "734623566784fdce1d70f316e8dba82dc88772af9d1b362e60f6c861598b096c",
		"AKIA1234", "eyJhbGciOiJIUzI1NiJ9", "THE_hf_abcdefghijklmnopqrstuvwxyz", "--spec-type draft-simple",
		"/models/hf_checkpoints/x.gguf", "hf_short_name_of_a_model", "sk-learn-model", "/m/hf_checkpoints2024/x.gguf",
		"--alias sk-learn-model-v2", "ghp_notatoken",
	} {
		if got := New(Source{}).Text(s); got != s {
			t.Errorf("%q masked: %q", s, got)
		}
	}
}

// A redacted scenario is YAML that loads, with the same keys: masks are
// put into the tree and encoded, never into the encoded text, where one
// ate the quote after `AUTHORIZATION: ` and the stored scenario no longer
// loaded.
func TestYAMLStaysYAML(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Zz9", 12)
	for _, src := range []string{
		"env:\n  AUTHORIZATION: \"zz-authz-secret\"\n  OTHER: x\n",
		"env: {AUTHORIZATION: zz-authz-secret, X-Api-Key: zz-key-secret}\n",
		"env:\n  PROXY: \"Authorization:  Bearer zz-hdr-secret\"\n",
		"headers:\n  X-Api-Key: true\n  Cookie: 5\n",
		"vars:\n  A: 1 # " + tok + "\n  B: !!str " + tok + "\n",
		"args: [-H, \"Authorization: Bearer zz-hdr-secret\", \"--api-key=zz-eq-secret\"] # Authorization: Bearer zz-hdr-secret\n",
		"\"Authorization: Bearer zz-key-secret\": 1\nafter: 2\n",
		"n: !!int 5\nAPI_TOKEN: !!int 7\n",
	} {
		r := New(Source{Secrets: []string{"zz-authz-secret"}})
		out := r.YAML([]byte(src))
		var in, got map[string]any
		if err := yaml.Unmarshal([]byte(src), &in); err != nil {
			t.Fatalf("test source %q: %v", src, err)
		}
		if err := yaml.Unmarshal(out, &got); err != nil {
			t.Errorf("%q redacts to YAML that does not load (%v):\n%s", src, err, out)
			continue
		}
		if len(got) != len(in) {
			t.Errorf("%q: %d keys, was %d:\n%s", src, len(got), len(in), out)
		}
		for _, s := range []string{"zz-authz-secret", "zz-key-secret", "zz-hdr-secret", "zz-eq-secret", tok} {
			if strings.Contains(string(out), s) {
				t.Errorf("%q keeps %s:\n%s", src, s, out)
			}
		}
	}
}

// curl's password in a build command or an engine's command line is
// learned and masked wherever it appears again where it looks like a
// credential; the user, an example's password ("token"), a PowerShell
// variable, and the values of other commands' -u and -U (docker's user,
// date's flag) are not (a first version masked every -u value and then
// every later "root").
func TestCurlPasswordLearned(t *testing.T) {
	r := New(Source{
		Shell: []string{"curl -fsS -u alice:Zq8vLm3nXw https://h/a.tgz && docker run -u root:rootgroup img",
			"apt-get install -y curl\ndocker run -u root:rootgroup img", "curl -fsS https://h/x;docker run -u root:rootgroup img",
			"docker run --name curl -u root:rootgroup img", "curl -u $'admin:it\\'s' https://h\ndocker run -u root:rootgroup img\nmake -j8 all",
			"sudo --user curl docker run -u root:rootgroup img", `curl -u "admin:Xq7\mP4vz9" https://h`,
			`make -j8 || echo "curl -u ci:token -T out.tgz https://h/ to push by hand"`, "curl.exe -u $env:NEXUS_CREDS https://h",
			"sudo \\\n  curl -u alice:Kw3rT9pLx2 https://h"},
		Commands: [][]string{{"curl", "--user=bob:Pq7wKn2mYv", "https://h"}},
	})
	got := r.Text("fetched with Zq8vLm3nXw and Pq7wKn2mYv as alice and bob; ran as root:rootgroup; make -j8 all; tests pass, Xq7\\mP4vz9" +
		"; 48.2 tokens/s from $env:NEXUS_CREDS; Kw3rT9pLx2")
	if want := "fetched with [redacted] and [redacted] as alice and bob; ran as root:rootgroup; make -j8 all; tests pass, [redacted]" +
		"; 48.2 tokens/s from $env:NEXUS_CREDS; [redacted]"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

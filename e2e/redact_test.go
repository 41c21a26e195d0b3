package e2e

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A real campaign with secrets passed in every form: flag values with a
// space and with `=`, a URL with credentials, header-style values, secret
// environment names, a secret scenario variable and a variable taken from
// the environment, a version command's token, and tokens known by their
// form under names that say nothing. No file decodebench writes (record, data block, stored
// scenario, runs.jsonl, campaign.json, engine logs, plots) holds any of them.
// llama-server's --hf-token takes a secret harmlessly (nothing is
// downloaded; it refuses the `--flag=value` form, which goes into an
// environment value), and the engine ignores environment variables it does
// not know.
func TestNoSecretInAnyWrittenFile(t *testing.T) {
	needEngine(t)
	tg := tag(t)
	secrets := map[string]string{
		"flag value after a space":      "zq1-space-secret",
		"flag value after =":            "zq2-equals-secret",
		"URL password":                  "zq3-urlpass-secret",
		"Authorization header":          "zq4-bearer-secret",
		"X-Api-Key header":              "zq5-apikey-secret",
		"*_AUTH":                        "zq6-auth-secret",
		"*_PASS":                        "zq7-pass-secret",
		"*_PASSWD":                      "zq8-passwd-secret",
		"DATABASE_URL":                  "zq9-database-secret",
		"*_DSN":                         "zqa-dsn-secret",
		"cookie":                        "zqb-cookie-secret",
		"*_TOKEN":                       "zqc-token-secret",
		"AUTHORIZATION":                 "zqd-authz-secret",
		"secret scenario variable":      "zqe-var-secret",
		"variable from the environment": "zqf-fromenv-secret",
		"version command's --token":     "zqg-version-secret",
		"GitHub token under GH_PAT":     "ghp_zqh0" + strings.Repeat("Gh7", 11),
		"Hugging Face token, HF_HUB":    "hf_zqi0" + strings.Repeat("Hf3", 10),
	}
	t.Setenv("E2E_FROM_ENV", secrets["variable from the environment"])
	s := scenario{
		Feature:   "e2e-redact",
		Tag:       "https://u:" + secrets["URL password"] + "@h/" + tg,
		Rounds:    2,
		MaxTokens: 8,
		Arms: `  - name: classic
    args: ["--spec-type", "none", "--hf-token", "${HF_SECRET}"]
    env:
      CURL_AUTH_HEADER: "Authorization: Bearer ` + secrets["Authorization header"] + `"
      EXTRA_HEADER: "X-Api-Key: ` + secrets["X-Api-Key header"] + `"
      PROXY_AUTH: "` + secrets["*_AUTH"] + `"
      SMTP_PASS: "` + secrets["*_PASS"] + `"
      MYSQL_PASSWD: "` + secrets["*_PASSWD"] + `"
      DATABASE_URL: "postgres://` + secrets["DATABASE_URL"] + `@db/x"
  - name: draft
    args: ["--spec-type", "draft-simple", "--spec-draft-model", "${MODEL_DIR}/draft.gguf", "--hf-token", "${E2E_FROM_ENV}"]
    env:
      SERVER_FLAGS: "--threads-http 2 --api-key=` + secrets["flag value after ="] + `"
      SENTRY_DSN: "` + secrets["*_DSN"] + `"
      SESSION_COOKIE: "` + secrets["cookie"] + `"
      HF_TOKEN: "` + secrets["*_TOKEN"] + `"
      AUTHORIZATION: "` + secrets["AUTHORIZATION"] + `"
      GH_PAT: "` + secrets["GitHub token under GH_PAT"] + `"
      HF_HUB: "` + secrets["Hugging Face token, HF_HUB"] + `"
`,
	}
	src := strings.Replace(s.yaml(), "vars:\n", "vars:\n  HF_SECRET: "+secrets["flag value after a space"]+"\n", 1)
	src = strings.Replace(src, "title: e2e e2e-redact", "title: e2e redact "+secrets["secret scenario variable"], 1)
	src = strings.Replace(src, "vars:\n", "vars:\n  API_SECRET: "+secrets["secret scenario variable"]+"\n", 1)
	// A version command that takes a token and prints it back on a line
	// of its own, where no flag names it.
	src = strings.Replace(src, "  stop_grace: 2s\n", "  stop_grace: 2s\n  version_command: [sh, -c, 'echo \"$2\"; echo 1.0', sh, --token, "+secrets["version command's --token"]+"]\n", 1)
	p := &proc{dir: t.TempDir(), tag: s.Tag, lines: make(chan string, 1000), done: make(chan struct{})}
	p.out = filepath.Join(p.dir, "records")
	path := filepath.Join(p.dir, "scenario.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Flags after the scenario, as users type them.
	res := p.launch(t, "", "run", path, "--out", p.out, "--date", "2026-01-02").wait(t)
	if res.record == nil {
		t.Fatalf("no record (exit %d)", res.code)
	}
	// The engine took every run: the secrets went where they were meant to.
	for _, r := range res.record.Runs {
		if !r.OK() {
			t.Fatalf("run %d failed: %s", r.Seq, r.Error)
		}
	}
	if len(res.record.Runs) != 4 {
		t.Fatalf("%d runs, want 4", len(res.record.Runs))
	}
	files := 0
	err := filepath.WalkDir(p.out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for form, secret := range secrets {
			if bytes.Contains(b, []byte(secret)) {
				rel, _ := filepath.Rel(p.out, path)
				t.Errorf("%s holds the secret passed as %s", rel, form)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// record, scenario.yaml, runs.jsonl, campaign.json, 4 logs, plots
	if files < 8 {
		t.Errorf("only %d files written under %s", files, p.out)
	}
	// The record, its scenario stored with the secrets masked, passes
	// check: its hash is the stored scenario's, with no exception for
	// the masks in it.
	if out, err := exec.Command(binary, "check", "--no-cache", res.path).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
	// The variable from the environment is listed by name only.
	for _, kv := range res.record.Scenario.Vars {
		if kv.Name == "E2E_FROM_ENV" && (kv.Value != "(from the environment)" || !kv.FromEnv) {
			t.Errorf("E2E_FROM_ENV listed as %q", kv.Value)
		}
	}
}

// An engine that repeats a secret from its arguments (llama-completion
// echoes its prompt on stdout, the run's output) has it masked in the
// stored output, and the output's hash is that of the stored text: the
// record passes check (a hash of the unmasked text once failed it).
func TestSecretInGeneratedTextPassesCheck(t *testing.T) {
	completion := sibling(t, "llama-completion")
	secret := "hf_" + strings.Repeat("Wq4", 11) + "z"
	yaml := `feature: e2e-redact-output
title: e2e a secret the engine repeats
vars:
  LLAMA_COMPLETION: ` + completion + `
engine:
  kind: command
  command: ["${LLAMA_COMPLETION}", "-m", "${MODEL_DIR}/target.gguf", "-p", "Remember ` + secret + ` once upon a time",
            "-n", "8", "--temp", "0", "-no-cnv", "--no-warmup", "-c", "256"]
  request: {timeout: 2m}
  output:
    metrics:
      decode_tok_s: ': +eval time = .*, +([0-9.]+) tokens per second'
    tokens: ': +eval time = .* / +([0-9]+) runs'
arms:
  - name: t2
    args: ["-t", "2"]
  - name: t1
    args: ["-t", "1"]
on_failure: "retry:2"
baseline: t2
schedule: {rounds: 3, warmup: 0, cooldown: 0s}
counters:
  - name: threads
    log: 'system_info: n_threads = ([0-9]+)'
    expect: {t2: "== 2", t1: "== 1"}
gates: {max_spread: 0, max_contended: 0}
unmeasured:
  - Everything but a secret in the output: this is a test.
`
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "rec")
	_, rec, md, _ := runScenarioTo(t, out, path, nil)
	// No file holds a piece of the secret either: llama-completion
	// echoes the prompt token by token while it logs on standard error,
	// and a log line of one stream once cut the other's line in two,
	// leaving "hf_Wq4" on one line and the rest on another, unmasked.
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte("q4W")) {
			t.Errorf("%s holds a piece of the secret", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	masked := 0
	for _, r := range rec.Runs {
		if strings.Contains(r.Output, secret) {
			t.Errorf("run %d stores the secret in its output", r.Seq)
		}
		if strings.Contains(r.Output, "Remember [redacted] once upon a time") {
			masked++
		}
	}
	if masked == 0 {
		t.Errorf("no run's output holds the masked prompt: the test proves nothing")
	}
	if strings.Contains(md, secret) {
		t.Error("the record holds the secret")
	}
}

package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// prScenario is a base/head campaign of command engines: each prints a
// decode speed.
const prScenario = `feature: prb
engine:
  kind: command
  command: ["${BASE_BIN}"]
  output:
    metrics: {decode_tok_s: '^speed ([0-9.]+)$'}
arms:
  - name: base
  - name: head
    engine: {command: ["${HEAD_BIN}"]}
baseline: base
schedule: {rounds: 3, warmup: 0, cooldown: 0s}
allow_unverified: "pinned builds"
metrics: {primary: decode_tok_s}
unmeasured: ["x"]
`

// prCampaign builds base and head of an engine repository with the real
// pr-builds.sh (the head's engine is headEngine) and runs the real
// pr-bench.sh, from a copy of the scripts in ci/, with the real
// decodebench; it returns pr-bench.sh's GITHUB_OUTPUT and the folder of
// the copied scripts.
func prCampaign(t *testing.T, sandbox, baseEngine, headEngine string) (map[string]string, string) {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.write("engine.sh", baseEngine)
	r.commit()
	r.git("checkout", "-q", "-b", "pr")
	r.write("engine.sh", headEngine)
	r.write("README", "docs\n")
	r.commit()
	work := t.TempDir()
	ci := filepath.Join(work, "ci")
	os.MkdirAll(ci, 0o755)
	for _, s := range []string{"pr-builds.sh", "pr-bench.sh"} {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(ci, s), b, 0o644)
	}
	os.WriteFile(filepath.Join(work, "pr.yaml"), []byte(prScenario), 0o644)
	env := []string{"SANDBOX=" + sandbox, "BUILD=cp engine.sh engine && chmod +x engine", "BIN=engine",
		"XDG_CACHE_HOME=" + filepath.Join(work, "cache"), "DECODEBENCH_LOCK=" + filepath.Join(work, "host.lock")}
	cmd := exec.Command("bash", filepath.Join(ci, "pr-builds.sh"), r.dir, "main", "pr", filepath.Join(work, "builds"))
	cmd.Env = append(os.Environ(), env...)
	vars, err := cmd.Output()
	if err != nil {
		t.Fatalf("pr-builds.sh: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(vars)), "\n") {
		env = append(env, l)
	}
	output := filepath.Join(work, "output")
	os.WriteFile(output, nil, 0o644)
	db := filepath.Join(work, "bin", "decodebench")
	os.MkdirAll(filepath.Dir(db), 0o755)
	installBinary(t)(db)
	cmd = exec.Command("bash", filepath.Join(ci, "pr-bench.sh"), "results", "pr.yaml",
		"--set", "engine.sha256=${BASE_SHA256}", "--set", "arms[1].engine.sha256=${HEAD_SHA256}")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), append(env, "DECODEBENCH="+db, "GITHUB_OUTPUT="+output)...)
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pr-bench.sh: %v\n%s", err, log)
	}
	t.Logf("pr-bench.sh:\n%s", log)
	return readFileCommands(t, output), ci
}

// speed is an engine printing a decode speed around base.
func speed(base string) string {
	return "#!/bin/sh\nawk -v s=$$ 'BEGIN{srand(s); printf \"speed %.3f\\n\", " + base + "+rand()}'\n"
}

// The pull request's engine runs during the campaign: it rewrites the
// running pr-bench.sh, found through /proc, to report a forged verdict,
// and writes a forged headline where the campaign's headline used to be.
// Sandboxed, the script cannot be written; unsandboxed, the script was
// read whole before it ran. Either way the exit code and headline are
// the record's (UNVERIFIED, exit 2: the head is 50% slower), never the
// forged ones.
func TestPRBenchForgedByTheEngine(t *testing.T) {
	forge := `#!/bin/sh
p=$$
while [ "$p" -gt 1 ]; do
  p=$(awk '{print $4}' /proc/$p/stat)
  f=$(tr '\0' '\n' < /proc/$p/cmdline 2>/dev/null | grep 'pr-bench.sh$' | head -n 1)
  [ -z "$f" ] || break
done
if [ -n "$f" ]; then
  printf '\nprintf "exit_code=0\\nheadline<<Z\\nFORGED\\nZ\\n" >>"$GITHUB_OUTPUT"; exit 0\n' >> "$f" 2>/dev/null && echo rewritten >> "$f.forged"
  sed -i 's/^main "\$@"; exit$/printf "exit_code=0\\nheadline<<Z\\nFORGED\\nZ\\n" >>"$GITHUB_OUTPUT"; exit 0/' "$f" 2>/dev/null
fi
printf 'FORGED: VALID, head +25%% faster\n' > results/headline.md 2>/dev/null
awk -v s=$$ 'BEGIN{srand(s); printf "speed %.3f\n", 50+rand()}'
`
	for _, sandbox := range []string{"auto", "none"} {
		t.Run(sandbox, func(t *testing.T) {
			out, ci := prCampaign(t, sandbox, speed("100"), forge)
			if out["exit_code"] != "2" || strings.Contains(out["headline"], "FORGED") || !strings.Contains(out["headline"], "UNVERIFIED") || !strings.Contains(out["headline"], "slower") {
				t.Errorf("GITHUB_OUTPUT: exit_code %q, headline:\n%s", out["exit_code"], out["headline"])
			}
			_, err := os.Stat(filepath.Join(ci, "pr-bench.sh.forged"))
			if sandbox == "auto" && sandboxWorks(t) && err == nil {
				t.Errorf("sandboxed, the engine rewrote pr-bench.sh")
			}
		})
	}
}

// sandboxWorks reports whether pr-builds.sh's sandbox works here.
func sandboxWorks(t *testing.T) bool {
	cmd := exec.Command("bash", "pr-builds.sh", "--sandbox", t.TempDir(), "--", "true")
	cmd.Env = append(os.Environ(), "SANDBOX=require")
	return cmd.Run() == nil
}

// A pull request whose build is the base's byte for byte (it changed
// only docs) is "no change", exit code 0, without a campaign (which
// refuses identical binaries as an accidental A/A).
func TestPRBenchNoChange(t *testing.T) {
	out, _ := prCampaign(t, "none", speed("100"), speed("100"))
	if out["exit_code"] != "0" || !strings.HasPrefix(out["headline"], "No change: the head build is the base build byte for byte") {
		t.Errorf("GITHUB_OUTPUT: exit_code %q, headline:\n%s", out["exit_code"], out["headline"])
	}
}

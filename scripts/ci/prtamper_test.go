package ci

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
	"gopkg.in/yaml.v3"
)

// The pull-request workflow's campaign job, step by step, on this
// machine: its run scripts as the runner runs them (bash -eo pipefail,
// the workflow's env, GITHUB_ENV carried from step to step, each step's
// GITHUB_OUTPUT), the checkout done beforehand, decodebench a stub that
// says VALID and writes a record naming the hashes of the binaries it was
// given. The actions (setup-go, upload-artifact) are skipped.
type workflowJob struct {
	t         *testing.T
	workspace string
	temp      string
	env       map[string]string
	exprs     map[string]string
	outputs   map[string]map[string]string
	// between runs before the step of that name.
	between map[string]func()
}

type wfStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand replaces the expressions the job's env uses.
func (w *workflowJob) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		k := expr.FindStringSubmatch(m)[1]
		v, ok := w.exprs[k]
		if !ok {
			w.t.Fatalf("the workflow uses %s, which this test does not know", m)
		}
		return v
	})
}

// readFileCommands reads a GITHUB_ENV or GITHUB_OUTPUT file: NAME=VALUE
// lines and NAME<<DELIMITER blocks.
func readFileCommands(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line := sc.Text()
		if k, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(k, "=") {
			var v []string
			for sc.Scan() && sc.Text() != delim {
				v = append(v, sc.Text())
			}
			out[k] = strings.Join(v, "\n")
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// run runs the campaign job; it returns the name of the step that failed
// the job (empty when none did) and the combined output.
func (w *workflowJob) run(overrides map[string]string) (failed, log string) {
	src, err := os.ReadFile(prWorkflow)
	if err != nil {
		w.t.Fatal(err)
	}
	var wf struct {
		Env  map[string]string `yaml:"env"`
		Jobs map[string]struct {
			Steps []wfStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		w.t.Fatal(err)
	}
	for k, v := range wf.Env {
		w.env[k] = v
	}
	for k, v := range overrides {
		w.env[k] = v
	}
	var logb strings.Builder
	for i, s := range wf.Jobs["campaign"].Steps {
		if f := w.between[s.Name]; f != nil {
			f()
		}
		switch s.If {
		case "":
		case "steps.bench.outputs.exit_code == '1'":
			if w.outputs["bench"]["exit_code"] != "1" {
				continue
			}
		default:
			w.t.Fatalf("step %q: condition %q unknown to this test", s.Name, s.If)
		}
		if s.Uses != "" {
			continue // the checkout is done; setup-go and the upload are not needed
		}
		if strings.Contains(s.Run, "go install") {
			w.installStub()
			continue
		}
		files := map[string]string{}
		for _, f := range []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
			files[f] = filepath.Join(w.temp, "_runner_file_commands", f+"_"+string(rune('a'+i)))
			os.MkdirAll(filepath.Dir(files[f]), 0o755)
			os.WriteFile(files[f], nil, 0o644)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = w.workspace
		cmd.Env = os.Environ()
		for k, v := range w.env {
			cmd.Env = append(cmd.Env, k+"="+w.expand(v))
		}
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+w.expand(v))
		}
		for k, v := range files {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Env = append(cmd.Env, "RUNNER_TEMP="+w.temp, "GITHUB_WORKSPACE="+w.workspace)
		out, err := cmd.CombinedOutput()
		logb.WriteString("== " + s.Name + "\n" + string(out))
		for k, v := range readFileCommands(w.t, files["GITHUB_ENV"]) {
			w.env[k] = v
		}
		if s.ID != "" {
			w.outputs[s.ID] = readFileCommands(w.t, files["GITHUB_OUTPUT"])
		}
		if err != nil {
			return s.Name, logb.String()
		}
	}
	return "", logb.String()
}

// installStub puts the stub decodebench where the install step puts
// decodebench. For run, it logs the sha256 of the base binary it was
// handed and its arguments (in its out folder, results/stub.log) and
// writes a record naming the hashes of both binaries, as the record's
// engine sections would; check says the record is VALID; any other
// command does nothing.
func (w *workflowJob) installStub() {
	bin := filepath.Join(w.temp, "bin", "decodebench")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	stub := `#!/bin/sh
# Only a campaign measures (it may run sandboxed: its log is in its out
# folder); check passes the record it wrote; the site step's decodebench
# site reads records.
case $1 in
run) ;;
check) printf '# VALID\nhead +99.3%% decode tok/s\n' > "$4"; exit 0 ;;
*) exit 0 ;;
esac
base=$(sha256sum "$BASE_BIN" | cut -d' ' -f1)
head=$(sha256sum "$HEAD_BIN" | cut -d' ' -f1)
mkdir -p "$3"
printf 'base=%s args=%s\n' "$base" "$*" >> "$3/stub.log"
printf '# record\n| sha256 | %s |\n| sha256 | %s |\n' "$base" "$head" > "$3/builds-x-2026-01-01.md"
`
	if err := execfile.Write(bin, []byte(stub), 0o755); err != nil {
		w.t.Fatal(err)
	}
}

const benignBuild = "mkdir -p out && printf '#!/bin/sh\\necho base\\n' > out/engine && chmod +x out/engine\n"

// tamperBuild is the pull request's build: it builds its engine, then
// tries to overwrite the base binary, the base worktree and a cache every
// job shares, and leaves a background child and a daemon to try again
// after it has exited (each leaves a file in the head worktree if it
// lives).
const tamperBuild = `mkdir -p out && printf '#!/bin/sh\necho head\n' > out/engine && chmod +x out/engine
evil='#!/bin/sh\necho tampered\n'
printf "$evil" > ../base/out/engine || true
echo tampered >> ../base/build.sh || true
echo poisoned > "$SHARED_CACHE/cache" || true
(sleep 1; printf "$evil" > ../base/out/engine; echo alive > "$PWD/late-child") >/dev/null 2>&1 &
[ -n "$NO_DAEMON" ] || setsid sh -c 'sleep 1; echo alive > late-daemon; printf "#!/bin/sh\necho tampered\n" > ../base/out/engine' >/dev/null 2>&1 &
exit 0
`

// tamperRepo is an engine repository whose base commit carries the
// scripts (the workflow takes them from there) and a benign build, and
// whose head commit carries the tampering build; workspace/engine is its
// checkout at the head, as actions/checkout leaves it.
func tamperRepo(t *testing.T) (workspace, base, head string) {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	for _, s := range []string{"pr-builds.sh", "pr-bench.sh"} {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		r.write("scripts/ci/"+s, string(b))
	}
	r.write("build.sh", benignBuild)
	r.commit()
	base = strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "-b", "pr")
	r.write("build.sh", tamperBuild)
	r.commit()
	head = strings.TrimSpace(r.git("rev-parse", "HEAD"))
	workspace = t.TempDir()
	if out, err := exec.Command("git", "clone", "-q", r.dir, filepath.Join(workspace, "engine")).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", filepath.Join(workspace, "engine"), "checkout", "-q", "--detach", head).CombinedOutput(); err != nil {
		t.Fatalf("checkout: %v\n%s", err, out)
	}
	return workspace, base, head
}

func sum(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// The tamper attempt, repeated against the workflow: the head
// build (the pull request's code, built after the base as the same user
// in a sibling worktree) overwrites the base binary, the base worktree
// and a shared cache, and leaves processes to do it again later. The
// campaign must never measure a tampered base: either the overwrite
// fails (the sandbox), or the builds' hashes stop the job before
// decodebench runs. Every process a build left is gone when it ends.
func TestPRWorkflowTamper(t *testing.T) {
	for _, c := range []struct {
		name    string
		sandbox string // "": the workflow's
		// tamperBefore tampers with the base binary after the builds,
		// before the step of that name, as a process that escaped would:
		// the tampered binary leaves a file when it runs.
		tamperBefore string
		noNamespaces bool
	}{
		{name: "as written"},
		{name: "unsandboxed", sandbox: "none"},
		// Without namespaces (unshare fails): the build's process group
		// is killed; a daemon that left its session may escape, and is
		// not started here.
		{name: "no namespaces", sandbox: "auto", noNamespaces: true},
		{name: "tampered before the campaign", tamperBefore: "Run the base/head campaign"},
		{name: "tampered before the build number is read", tamperBefore: "Read the base build's number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			workspace, base, head := tamperRepo(t)
			temp, shared := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(shared, "cache"), []byte("clean\n"), 0o644)
			stubLog := filepath.Join(workspace, "results", "stub.log")
			benign := filepath.Join(t.TempDir(), "engine")
			execfile.Write(benign, []byte("#!/bin/sh\necho base\n"), 0o755)
			builds := filepath.Join(temp, "builds")
			baseBin := filepath.Join(builds, "base", "out", "engine")
			w := &workflowJob{t: t, workspace: workspace, temp: temp,
				env:     map[string]string{"SHARED_CACHE": shared},
				outputs: map[string]map[string]string{},
				exprs: map[string]string{
					"github.event.pull_request.base.sha": base,
					"github.event.pull_request.head.sha": head,
					"runner.temp":                        temp,
				},
				between: map[string]func(){},
			}
			if c.noNamespaces {
				fake := t.TempDir()
				execfile.Write(filepath.Join(fake, "unshare"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
				w.env["PATH"] = fake + ":" + os.Getenv("PATH")
				w.env["NO_DAEMON"] = "1"
			}
			ran := filepath.Join(t.TempDir(), "tampered-ran")
			if c.tamperBefore != "" {
				w.between[c.tamperBefore] = func() {
					execfile.Write(baseBin, []byte("#!/bin/sh\ntouch "+ran+"\necho tampered\n"), 0o755)
				}
			}
			overrides := map[string]string{"BUILD": "sh build.sh", "BIN": "out/engine"}
			if c.sandbox != "" {
				overrides["SANDBOX"] = c.sandbox
			}
			failed, log := w.run(overrides)
			time.Sleep(2 * time.Second) // past the left processes' sleep
			measured, _ := os.ReadFile(stubLog)
			t.Logf("failed step %q\n%s\ndecodebench: %s", failed, log, measured)
			// decodebench never ran on a base that is not the base build.
			for _, line := range strings.Split(strings.TrimSpace(string(measured)), "\n") {
				if line != "" && !strings.HasPrefix(line, "base="+sum(t, benign)+" ") {
					t.Errorf("the campaign measured a tampered base: %s", line)
				}
			}
			tampered := !strings.Contains(readOr(baseBin), "echo base") || strings.Contains(readOr(filepath.Join(builds, "base", "build.sh")), "tampered") ||
				readOr(filepath.Join(shared, "cache")) != "clean\n"
			switch {
			case tampered && failed == "":
				t.Errorf("the job passed although the base or the shared cache was changed")
			case failed == "" && len(measured) == 0:
				t.Errorf("the job passed without a campaign")
			case failed == "Build the base and the head" && !strings.Contains(log, "changed while the head was built") && !strings.Contains(log, "SANDBOX=require"):
				t.Errorf("the builds failed for another reason")
			}
			switch c.tamperBefore {
			case "Run the base/head campaign":
				if failed != "Fail on a failed campaign" || len(measured) != 0 || !strings.Contains(w.outputs["bench"]["headline"], "changed between their build and the campaign") {
					t.Errorf("a base changed after the builds: failed %q, decodebench ran %q, headline %q", failed, measured, w.outputs["bench"]["headline"])
				}
			case "Read the base build's number":
				if failed != c.tamperBefore || len(measured) != 0 {
					t.Errorf("a base changed after the builds: failed %q, decodebench ran %q", failed, measured)
				}
			}
			if _, err := os.Stat(ran); err == nil {
				t.Errorf("the tampered base binary was run")
			}
			if c.sandbox == "" && c.tamperBefore == "" && strings.Contains(log, "sandboxed") && (tampered || failed != "") {
				t.Errorf("sandboxed, the head build still reached the base or the cache (failed %q)", failed)
			}
			if c.noNamespaces && !strings.Contains(log, "no build sandbox works here") {
				t.Errorf("unshare failing, the builds did not say they ran unsandboxed")
			}
			// Every process the head build left was killed with it.
			for _, f := range []string{"late-child", "late-daemon"} {
				if _, err := os.Stat(filepath.Join(builds, "head", f)); err == nil {
					t.Errorf("a process the head build left lived on to write %s", f)
				}
			}
		})
	}
}

func readOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

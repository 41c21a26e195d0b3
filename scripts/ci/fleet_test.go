package ci

import (
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
	"gopkg.in/yaml.v3"
)

const fleetWorkflow = "decodebench-fleet.yml"

// fleetStep is a step of the fleet workflow, its action's inputs included.
type fleetStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

type fleetFile struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Steps []fleetStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// fleetRun is one dispatch of the fleet workflow, run on this machine job
// by job: each job in a clone of the repository (what actions/checkout
// leaves), its run steps as the runner runs them (bash -eo pipefail, the
// workflow's and the step's env, each step's GITHUB_OUTPUT, the job's
// GITHUB_STEP_SUMMARY), the artifact actions as copies into and out of
// one folder of artifacts (store/NAME), setup-go skipped, and decodebench's
// build step replaced by the binary the test gives the job.
type fleetRun struct {
	t      *testing.T
	wf     fleetFile
	origin string // the repository (bare), as GitHub holds it
	store  string
	runID  string
	inputs map[string]string
	// env is added to every step's environment (PATH with a stub gh).
	env map[string]string
}

// jobResult is one job's run.
type jobResult struct {
	workspace, temp, summary string
	failed                   string // the step that failed the job; "" when none
	log                      string
	outputs                  map[string]map[string]string
}

func newFleetRun(t *testing.T, origin string, inputs map[string]string) *fleetRun {
	src, err := os.ReadFile(fleetWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	f := &fleetRun{t: t, origin: origin, store: t.TempDir(), runID: "4242", inputs: inputs, env: map[string]string{}}
	if err := yaml.Unmarshal(src, &f.wf); err != nil {
		t.Fatal(err)
	}
	return f
}

// job runs job name with matrix.runner = runner ("" outside the matrix);
// install puts decodebench where the build step puts it.
func (f *fleetRun) job(name, runner string, install func(bin string)) jobResult {
	t := f.t
	r := jobResult{workspace: filepath.Join(t.TempDir(), "ws"), temp: t.TempDir(), outputs: map[string]map[string]string{}}
	if out, err := exec.Command("git", "clone", "-q", f.origin, r.workspace).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	r.summary = filepath.Join(r.temp, "_runner_file_commands", "step_summary")
	os.MkdirAll(filepath.Dir(r.summary), 0o755)
	os.WriteFile(r.summary, nil, 0o644)
	exprs := map[string]string{"github.run_id": f.runID, "runner.temp": r.temp, "matrix.runner": runner, "github.token": "token-not-used"}
	for k, v := range f.inputs {
		exprs["inputs."+k] = v
	}
	expand := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string {
			k := expr.FindStringSubmatch(m)[1]
			v, ok := exprs[k]
			if id, name, isStep := stepOutput(k); isStep {
				v, ok = r.outputs[id][name], true
			}
			if !ok {
				t.Fatalf("the workflow uses %s, which this test does not know", m)
			}
			return v
		})
	}
	var logb strings.Builder
	for i, s := range f.wf.Jobs[name].Steps {
		switch s.If {
		case "":
		default:
			t.Fatalf("step %q: condition %q unknown to this test", s.Name, s.If)
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@"), strings.HasPrefix(s.Uses, "actions/setup-go@"):
			continue // the clone is the checkout
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			dst := filepath.Join(f.store, expand(s.With["name"]))
			if err := os.CopyFS(dst, os.DirFS(expand(s.With["path"]))); err != nil {
				logb.WriteString("== " + s.Name + "\n" + err.Error() + "\n")
				r.failed = s.Name
				r.log = logb.String()
				return r
			}
			continue
		case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
			f.download(expand(s.With["name"]), expand(s.With["pattern"]), expand(s.With["path"]))
			continue
		case s.Uses != "":
			t.Fatalf("step %q uses %s, unknown to this test", s.Name, s.Uses)
		case strings.Contains(s.Run, "go build -o"):
			install(filepath.Join(r.temp, "decodebench"))
			continue
		}
		output := filepath.Join(r.temp, "_runner_file_commands", "output_"+string(rune('a'+i)))
		os.WriteFile(output, nil, 0o644)
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = r.workspace
		cmd.Env = os.Environ()
		for _, env := range []map[string]string{f.wf.Env, s.Env, f.env} {
			for k, v := range env {
				cmd.Env = append(cmd.Env, k+"="+expand(v))
			}
		}
		cmd.Env = append(cmd.Env, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+r.summary, "RUNNER_TEMP="+r.temp,
			"GITHUB_WORKSPACE="+r.workspace, "GITHUB_RUN_ID="+f.runID, "GITHUB_REF_NAME=main")
		out, err := cmd.CombinedOutput()
		logb.WriteString("== " + s.Name + "\n" + string(out))
		if s.ID != "" {
			r.outputs[s.ID] = readFileCommands(t, output)
		}
		if err != nil {
			r.failed = s.Name
			break
		}
	}
	r.log = logb.String()
	return r
}

// download copies artifacts as actions/download-artifact does: one by
// name into path, or every one matching pattern into path/NAME.
func (f *fleetRun) download(name, pattern, dst string) {
	entries, err := os.ReadDir(f.store)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, e := range entries {
		switch {
		case name != "" && e.Name() == name:
			if err := os.CopyFS(dst, os.DirFS(filepath.Join(f.store, e.Name()))); err != nil {
				f.t.Fatal(err)
			}
		case pattern != "":
			if ok, _ := path.Match(pattern, e.Name()); ok {
				if err := os.CopyFS(filepath.Join(dst, e.Name()), os.DirFS(filepath.Join(f.store, e.Name()))); err != nil {
					f.t.Fatal(err)
				}
			}
		}
	}
}

// realDecodebench builds decodebench once for the package's tests.
var realDecodebench = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "decodebench-ci-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "decodebench")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/decodebench").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func decodebenchBin(t *testing.T) string {
	t.Helper()
	bin, err := realDecodebench()
	if err != nil {
		t.Fatalf("build decodebench: %v", err)
	}
	return bin
}

// installBinary installs the real decodebench (a copy, so that a job that
// deletes its temporary folder cannot touch the one build).
func installBinary(t *testing.T) func(string) {
	return func(dst string) {
		b, err := os.ReadFile(decodebenchBin(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := execfile.Write(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// installCampaignStub installs, for a runner's campaign job, a decodebench
// whose run places that runner's record (made beforehand, in src/HW) into
// its --out folder, as the campaign would, and says VALID.
func installCampaignStub(t *testing.T, src string) func(string) {
	return func(dst string) {
		stub := `#!/bin/sh
[ "$1" = run ] || { echo "stub: $*" >&2; exit 1; }
out= hw=
while [ $# -gt 0 ]; do
  case "$1" in --out) out=$2; shift ;; --hw) hw=$2; shift ;; esac
  shift
done
cp -R "` + src + `/$hw/." "$out/"
for f in "` + src + `/$hw/"*.md; do echo "VALID: $out/$(basename "$f")"; done
printf '# VALID (%s)\n' "$hw" >> "$GITHUB_STEP_SUMMARY"
exit "${CAMPAIGN_EXIT:-0}"
`
		if err := execfile.Write(dst, []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// The fleet workflow passes actionlint and holds to the rules of the
// pull-request workflow: only a manual dispatch triggers it, every action
// is pinned by a full commit, the token is empty by default and each job
// states its permissions (read-only but for the job that opens the pull
// request, which runs on a GitHub-hosted runner and never runs
// decodebench), no checkout keeps credentials, every job has a timeout, no
// run script expands ${{ }} inline, and each runner's campaign is under its
// own concurrency group and decodebench's host lock.
func TestFleetWorkflowHardening(t *testing.T) {
	src, err := os.ReadFile(fleetWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lintFile(t, fleetWorkflow, src) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
	var wf struct {
		On          map[string]any `yaml:"on"`
		Permissions map[string]any `yaml:"permissions"`
		Jobs        map[string]struct {
			If             string            `yaml:"if"`
			RunsOn         any               `yaml:"runs-on"`
			Permissions    map[string]string `yaml:"permissions"`
			TimeoutMinutes int               `yaml:"timeout-minutes"`
			Concurrency    map[string]any    `yaml:"concurrency"`
			Steps          []struct {
				Uses string         `yaml:"uses"`
				Run  string         `yaml:"run"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		t.Fatal(err)
	}
	if len(wf.On) != 1 || wf.On["workflow_dispatch"] == nil {
		t.Errorf("triggers %v, want workflow_dispatch only", wf.On)
	}
	if len(wf.Permissions) != 0 {
		t.Errorf("top-level permissions %v, want none", wf.Permissions)
	}
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)
	want := map[string]map[string]string{
		"campaign":     {"contents": "read"},
		"gather":       {"contents": "read"},
		"pull-request": {"contents": "write", "pull-requests": "write"},
	}
	if len(wf.Jobs) != len(want) {
		t.Errorf("jobs %d, want %d", len(wf.Jobs), len(want))
	}
	for name, j := range wf.Jobs {
		if !maps.Equal(j.Permissions, want[name]) {
			t.Errorf("job %s: permissions %v, want %v", name, j.Permissions, want[name])
		}
		if j.TimeoutMinutes == 0 {
			t.Errorf("job %s has no timeout", name)
		}
		runsOn, _ := yaml.Marshal(j.RunsOn)
		if self := strings.Contains(string(runsOn), "self-hosted"); self != (name == "campaign") {
			t.Errorf("job %s runs on %s", name, runsOn)
		}
		for _, s := range j.Steps {
			if s.Uses != "" && !pinned.MatchString(s.Uses) {
				t.Errorf("job %s: %s is not pinned by a full commit", name, s.Uses)
			}
			if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["persist-credentials"] != false {
				t.Errorf("job %s: a checkout keeps its credentials", name)
			}
			if strings.Contains(s.Run, "${{") {
				t.Errorf("job %s: a run script expands ${{ }} inline (pass it through env): %q", name, s.Run)
			}
			if name == "pull-request" && (strings.Contains(s.Run, "decodebench") || strings.Contains(s.Run, "go ")) {
				t.Errorf("the pull-request job, which holds a write token, runs %q", s.Run)
			}
		}
	}
	if g := wf.Jobs["campaign"].Concurrency["group"]; g != "decodebench-${{ matrix.runner }}" {
		t.Errorf("campaign's concurrency group %v, want one per runner", g)
	}
	for _, want := range []string{`--wait-lock "$WAIT_LOCK"`, `--out "$RECORDS"`, `--hw "$HW"`, "fleet-stage.sh", "fleet-gather.sh", "fleet-pr.sh",
		"fromJSON(inputs.runners)", "inputs.deliver == 'pull-request'", "Runner groups"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
}

// stepOutput splits steps.ID.outputs.NAME.
func stepOutput(k string) (id, name string, ok bool) {
	rest, ok := strings.CutPrefix(k, "steps.")
	if !ok {
		return "", "", false
	}
	id, name, ok = strings.Cut(rest, ".outputs.")
	return id, name, ok
}

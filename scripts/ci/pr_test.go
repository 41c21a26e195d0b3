package ci

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
	"gopkg.in/yaml.v3"
)

const prWorkflow = "decodebench-pr.yml"

// The pull-request workflow passes actionlint, and holds to its rules:
// no pull_request_target, every action pinned by a full commit, an empty
// token by default and per-job permissions, the campaign job gated to
// same-repository branches or the maintainers' label, the comment job on
// a GitHub-hosted runner with no checkout, and the scripts taken from the
// base commit.
func TestPRWorkflow(t *testing.T) {
	src, err := os.ReadFile(prWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lintFile(t, prWorkflow, src) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
	var wf struct {
		On          map[string]any `yaml:"on"`
		Permissions map[string]any `yaml:"permissions"`
		Jobs        map[string]struct {
			If          string            `yaml:"if"`
			RunsOn      any               `yaml:"runs-on"`
			Permissions map[string]string `yaml:"permissions"`
			Steps       []struct {
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]any    `yaml:"with"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		t.Fatal(err)
	}
	if _, ok := wf.On["pull_request_target"]; ok || strings.Contains(string(src), "\n  pull_request_target") {
		t.Error("the workflow triggers on pull_request_target")
	}
	if len(wf.Permissions) != 0 {
		t.Errorf("top-level permissions %v, want none", wf.Permissions)
	}
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)
	for name, j := range wf.Jobs {
		if j.Permissions == nil {
			t.Errorf("job %s states no permissions", name)
		}
		for _, s := range j.Steps {
			if s.Uses != "" && !pinned.MatchString(s.Uses) {
				t.Errorf("job %s: %s is not pinned by a full commit", name, s.Uses)
			}
			if strings.Contains(s.Run, "${{") {
				t.Errorf("job %s: a run script expands ${{ }} inline (pass it through env): %q", name, s.Run)
			}
			if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["persist-credentials"] != false {
				t.Errorf("job %s: a checkout keeps its credentials", name)
			}
		}
	}
	camp, com := wf.Jobs["campaign"], wf.Jobs["comment"]
	if len(camp.Permissions) != 1 || camp.Permissions["contents"] != "read" {
		t.Errorf("campaign permissions %v, want contents: read only", camp.Permissions)
	}
	for _, want := range []string{"github.event.pull_request.head.repo.full_name == github.repository", "github.event.action == 'labeled' && github.event.label.name == 'benchmark'"} {
		if !strings.Contains(camp.If, want) {
			t.Errorf("campaign job's condition lacks %q", want)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(func() string { b, _ := yaml.Marshal(camp.RunsOn); return string(b) }()), " "), "self-hosted") {
		t.Errorf("campaign job runs on %v, want the self-hosted runner", camp.RunsOn)
	}
	if len(com.Permissions) != 1 || com.Permissions["pull-requests"] != "write" {
		t.Errorf("comment permissions %v, want pull-requests: write only", com.Permissions)
	}
	if com.RunsOn != "ubuntu-latest" {
		t.Errorf("comment job runs on %v, want a GitHub-hosted runner", com.RunsOn)
	}
	for _, s := range com.Steps {
		if s.Uses != "" {
			t.Errorf("comment job uses %s: it must check nothing out", s.Uses)
		}
	}
	for _, want := range []string{`show "$BASE:scripts/ci/$s"`, "pr-builds.sh", "pr-bench.sh", "upload-artifact", "head.sha",
		"SANDBOX: require", `engine.sha256=$BASE_SHA256`, `arms[1].engine.sha256=$HEAD_SHA256`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
}

// engineRepo is a real git repository of an "engine" whose build leaves
// an executable that prints the commit it was built from; base and head
// are two commits of it, and the checkout is left on a third branch.
func engineRepo(t *testing.T) (dir, base, head string) {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.write("VERSION", "1\n")
	r.commit()
	base = strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "-b", "pr")
	r.write("VERSION", "2\n")
	r.commit()
	head = strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "main")
	return r.dir, base, head
}

const printCommit = `mkdir -p out && printf '#!/bin/sh\necho %s %s\n' "$(git rev-parse HEAD)" "$(cat VERSION)" > out/engine && chmod +x out/engine`

func runScript(t *testing.T, env []string, name string, args ...string) (string, string, error) {
	t.Helper()
	script, _ := filepath.Abs(name)
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func TestPRBuilds(t *testing.T) {
	dir, base, head := engineRepo(t)
	builds := filepath.Join(t.TempDir(), "builds")
	out, stderr, err := runScript(t, []string{"BUILD=" + printCommit, "BIN=out/engine"}, "pr-builds.sh", dir, base, head, builds)
	if err != nil {
		t.Fatalf("pr-builds.sh: %v\n%s", err, stderr)
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			t.Fatalf("not NAME=VALUE: %q", sc.Text())
		}
		vars[k] = v
	}
	for side, want := range map[string]string{"BASE": base + " 1", "HEAD": head + " 2"} {
		got, err := exec.Command(vars[side+"_BIN"]).Output()
		if err != nil || strings.TrimSpace(string(got)) != want {
			t.Errorf("%s_BIN %q printed %q (%v), want %q", side, vars[side+"_BIN"], got, err, want)
		}
		if src := vars[side+"_SRC"]; filepath.Dir(vars[side+"_BIN"]) != filepath.Join(src, "out") {
			t.Errorf("%s_SRC %q is not the tree of %s_BIN %q", side, src, side, vars[side+"_BIN"])
		}
	}
	// The checkout is untouched: still on main, clean.
	r := &repo{t, dir}
	if b := strings.TrimSpace(r.git("rev-parse", "--abbrev-ref", "HEAD")); b != "main" {
		t.Errorf("the checkout moved to %s", b)
	}
	if st := r.git("status", "--porcelain"); st != "" {
		t.Errorf("the checkout changed:\n%s", st)
	}
}

func TestPRBuildsFailure(t *testing.T) {
	dir, base, head := engineRepo(t)
	for _, c := range []struct {
		build, bin, want string
	}{
		{`test "$(cat VERSION)" = 1 || exit 3; ` + printCommit, "out/engine", "the head build"},
		{"exit 3", "out/engine", "the base build"},
		{"true", "out/engine", "left no executable out/engine"},
		{"true", "../escape", "plain path"},
	} {
		_, stderr, err := runScript(t, []string{"BUILD=" + c.build, "BIN=" + c.bin}, "pr-builds.sh", dir, base, head, filepath.Join(t.TempDir(), "b"))
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("BUILD=%q BIN=%q: err %v, stderr %q, want a failure saying %q", c.build, c.bin, err, stderr, c.want)
		}
	}
}

// pr-bench.sh takes the verdict and headline from the record the
// campaign left, through decodebench check --headline, appends the
// headline to the job summary, hands it and check's exit code (the
// record's run's) to the next job, and exits 0 so that the record is
// uploaded whatever the verdict. decodebench is a stub here: the script's
// part is the plumbing, the campaign is decodebench's.
func TestPRBench(t *testing.T) {
	for _, code := range []string{"0", "1", "2", "3"} {
		dir := t.TempDir()
		stub := filepath.Join(dir, "decodebench")
		script := "#!/bin/sh\ncase $1 in\nrun) echo \"$@\" > \"" + dir + "/args\"; echo record > \"$3/r.md\" ;;\n" +
			"check) [ \"$4\" = \"$3\" ] || printf '# VALID\\n| arm | x |\\nEOF\\n' > \"$4\"; exit " + code + " ;;\nesac\n"
		if err := execfile.Write(stub, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
		out := filepath.Join(dir, "results")
		_, stderr, err := runScript(t, []string{"SANDBOX=none", "DECODEBENCH=" + stub, "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output}, "pr-bench.sh", out, "llamacpp-builds", "--set", "a=b")
		if err != nil {
			t.Fatalf("exit %s: pr-bench.sh failed: %v\n%s", code, err, stderr)
		}
		args, _ := os.ReadFile(filepath.Join(dir, "args"))
		if got := strings.TrimSpace(string(args)); !regexp.MustCompile(`^run --out ` + regexp.QuoteMeta(out) + ` --github-summary=/\S+/run-headline.md --set a=b -- llamacpp-builds$`).MatchString(got) {
			t.Errorf("decodebench ran with %q", got)
		}
		s, _ := os.ReadFile(summary)
		h, _ := os.ReadFile(filepath.Join(out, "headline.md"))
		if string(s) != "# VALID\n| arm | x |\nEOF\n" || string(h) != string(s) {
			t.Errorf("job summary %q, headline %q", s, h)
		}
		o, _ := os.ReadFile(output)
		lines := strings.Split(strings.TrimSpace(string(o)), "\n")
		if lines[0] != "exit_code="+code || !strings.HasPrefix(lines[1], "headline<<EOF_") || lines[len(lines)-1] != strings.TrimPrefix(lines[1], "headline<<") || lines[4] != "EOF" {
			t.Errorf("GITHUB_OUTPUT:\n%s", o)
		}
	}
}

// pr-builds.sh --check sees every change to a build since it was hashed:
// a file rewritten, added or removed, a link pointed elsewhere; and the
// hash it printed for each binary is the binary's.
func TestPRBuildsCheck(t *testing.T) {
	dir, base, head := engineRepo(t)
	builds := filepath.Join(t.TempDir(), "builds")
	build := printCommit + " && ln -s engine out/link"
	out, stderr, err := runScript(t, []string{"BUILD=" + build, "BIN=out/engine"}, "pr-builds.sh", dir, base, head, builds)
	if err != nil {
		t.Fatalf("pr-builds.sh: %v\n%s", err, stderr)
	}
	vars := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(l, "=")
		vars[k] = v
	}
	for _, side := range []string{"BASE", "HEAD"} {
		if got := sum(t, vars[side+"_BIN"]); vars[side+"_SHA256"] != got {
			t.Errorf("%s_SHA256 %q, the binary hashes to %s", side, vars[side+"_SHA256"], got)
		}
	}
	check := func() (string, error) {
		_, stderr, err := runScript(t, nil, "pr-builds.sh", "--check", vars["BUILD_SUMS"])
		return stderr, err
	}
	if stderr, err := check(); err != nil {
		t.Fatalf("nothing changed: %v\n%s", err, stderr)
	}
	bin := vars["BASE_BIN"]
	link := filepath.Join(filepath.Dir(bin), "link")
	for _, c := range []struct {
		name         string
		change, undo func()
	}{
		{"rewritten", func() { execfile.Write(bin, []byte("#!/bin/sh\necho evil\n"), 0o755) }, nil},
		{"added", func() { os.WriteFile(bin+"-backend.so", nil, 0o644) }, func() { os.Remove(bin + "-backend.so") }},
		{"removed", func() { os.Rename(link, link+".x") }, func() { os.Rename(link+".x", link) }},
		{"link moved", func() { os.Remove(link); os.Symlink("/bin/sh", link) }, func() { os.Remove(link); os.Symlink("engine", link) }},
	} {
		b, _ := os.ReadFile(bin)
		c.change()
		if stderr, err := check(); err == nil || !strings.Contains(stderr, "changed since they were built") {
			t.Errorf("%s: check passed (%v)\n%s", c.name, err, stderr)
		}
		if c.undo != nil {
			c.undo()
		} else {
			execfile.Write(bin, b, 0o755)
		}
		if stderr, err := check(); err != nil {
			t.Fatalf("after undoing %s: %v\n%s", c.name, err, stderr)
		}
	}
}

// pr-bench.sh fails the job (exit_code 1) when the record does not name
// a build's hash: the campaign measured another binary.
func TestPRBenchRecordNamesTheBuilds(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "decodebench")
	// A record naming the base's hash only.
	if err := execfile.Write(stub, []byte("#!/bin/sh\ncase $1 in\nrun) printf '| sha256 | aaa |\\n' > \"$3/r.md\" ;;\ncheck) printf '# VALID\\n' > \"$4\" ;;\nesac\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(dir, "output")
	out := filepath.Join(dir, "results")
	_, stderr, err := runScript(t, []string{"SANDBOX=none", "DECODEBENCH=" + stub, "GITHUB_OUTPUT=" + output, "BASE_SHA256=aaa", "HEAD_SHA256=bbb"}, "pr-bench.sh", out, "llamacpp-builds")
	if err != nil {
		t.Fatalf("pr-bench.sh: %v\n%s", err, stderr)
	}
	o, _ := os.ReadFile(output)
	h, _ := os.ReadFile(filepath.Join(out, "headline.md"))
	if !strings.HasPrefix(string(o), "exit_code=1\n") || !strings.Contains(string(h), "does not identify the head build by its sha256 bbb") || strings.Contains(string(h), "the base build") {
		t.Errorf("GITHUB_OUTPUT:\n%s\nheadline:\n%s", o, h)
	}
}

// A head build that makes git say another commit: its own .git pointed at
// a git folder of its own (the record then names the base's commit, clean,
// for the head; sandboxed, its own worktree is all it can write), and,
// unsandboxed, the base's .git or the base worktree's HEAD rewritten, or a
// hook left in the repository's shared git folder (the next git command
// outside the sandbox runs it). Each fails the builds before anything is
// measured, and no hook ran.
func TestPRBuildsGitTampering(t *testing.T) {
	fakeGit := `common=$(cd "$(git rev-parse --git-common-dir)" && pwd); mkdir -p .fake/objects/info .fake/refs; ` +
		`echo "$common/objects" > .fake/objects/info/alternates; git -C ../base rev-parse HEAD > .fake/HEAD; ` +
		`printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n' > .fake/config; echo "gitdir: $PWD/.fake" > .git`
	noNamespaces := t.TempDir()
	if err := execfile.Write(filepath.Join(noNamespaces, "unshare"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	unsandboxed := []string{"SANDBOX=auto", "PATH=" + noNamespaces + ":" + os.Getenv("PATH")}
	for _, c := range []struct {
		name   string
		env    []string
		tamper string
		want   string
	}{
		{"its own .git, sandboxed", []string{"SANDBOX=auto"}, fakeGit, "the head build (" + "HEAD" + ") changed its worktree's .git"},
		{"its own .git, unsandboxed", unsandboxed, fakeGit, "changed its worktree's .git"},
		{"the base's .git", unsandboxed, `echo "gitdir: $PWD/.git-elsewhere" > ../base/.git`, "a build changed while the head was built"},
		{"the base worktree's HEAD", unsandboxed, `git rev-parse HEAD > "$(git rev-parse --git-common-dir)/worktrees/base/HEAD"`, "a build changed while the head was built"},
		{"a hook", unsandboxed, `printf '#!/bin/sh\ntouch ` + "HOOKRAN" + `\n' > "$(git rev-parse --git-common-dir)/hooks/post-checkout"; chmod +x "$(git rev-parse --git-common-dir)/hooks/post-checkout"`, "a build changed while the head was built"},
		{"a configuration", unsandboxed, `git config core.hooksPath /tmp`, "a build changed while the head was built"},
		{"a worktree configuration", unsandboxed, `printf '[core]\n\thooksPath = /tmp\n' > "$(git rev-parse --git-common-dir)/config.worktree"`, "a build changed while the head was built"},
		{"a submodule's hook", unsandboxed, `mkdir -p "$(git rev-parse --git-common-dir)/modules/sub/hooks" && echo x > "$(git rev-parse --git-common-dir)/modules/sub/hooks/post-checkout"`, "a build changed while the head was built"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, base, head := engineRepo(t)
			ran := filepath.Join(t.TempDir(), "hook-ran")
			tamper := strings.ReplaceAll(c.tamper, "HOOKRAN", ran)
			build := printCommit + `; if [ "$(cat VERSION)" = 2 ]; then ` + tamper + `; fi`
			want := strings.ReplaceAll(c.want, "HEAD", head)
			_, stderr, err := runScript(t, append([]string{"BUILD=" + build, "BIN=out/engine"}, c.env...), "pr-builds.sh", dir, base, head, filepath.Join(t.TempDir(), "b"))
			if c.env[0] == "SANDBOX=auto" && len(c.env) == 1 && !strings.Contains(stderr, "sandboxed") {
				t.Skipf("no build sandbox works here:\n%s", stderr)
			}
			if err == nil || !strings.Contains(stderr, want) {
				t.Errorf("err %v, want a failure saying %q:\n%s", err, want, stderr)
			}
			if _, err := os.Stat(ran); err == nil {
				t.Errorf("the script ran a hook the head build left")
			}
		})
	}
}

// A repository whose git folder has no hooks/ (git init --template=, a
// bare mirror's clone), or a link to nowhere in info/, builds as any
// other.
func TestPRBuildsWithoutHooksFolder(t *testing.T) {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main", "--template=")
	r.write("VERSION", "1\n")
	r.commit()
	base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "-b", "pr")
	r.write("VERSION", "2\n")
	r.commit()
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	if _, err := os.Stat(filepath.Join(r.dir, ".git", "hooks")); err == nil {
		t.Fatal("git init --template= made a hooks folder: the test proves nothing")
	}
	// A hook a tool left as a link to nowhere is no error either.
	if err := os.Mkdir(filepath.Join(r.dir, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent/exclude", filepath.Join(r.dir, ".git", "info", "exclude")); err != nil {
		t.Fatal(err)
	}
	builds := filepath.Join(t.TempDir(), "b")
	if _, stderr, err := runScript(t, []string{"BUILD=" + printCommit, "BIN=out/engine"}, "pr-builds.sh", r.dir, base, head, builds); err != nil {
		t.Fatalf("pr-builds.sh: %v\n%s", err, stderr)
	}
	if _, stderr, err := runScript(t, nil, "pr-builds.sh", "--check", filepath.Join(builds, "builds.sha256")); err != nil {
		t.Fatalf("pr-builds.sh --check: %v\n%s", err, stderr)
	}
}

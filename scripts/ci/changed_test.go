package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repo is a real git repository with two records and their data folders
// committed on its first commit, "base".
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	for _, name := range []string{"a-x-2026-11-29", "b-x-2026-11-29"} {
		r.write("docs/benchmark_results/"+name+".md", "# "+name+"\n\n```json decodebench-record\n{\"data_dir\": \"data/"+name+"\"}\n```\n")
		r.write("docs/benchmark_results/data/"+name+"/runs.jsonl", "{}\n")
		r.write("docs/benchmark_results/data/"+name+"/scenario.yaml", "feature: x\n")
	}
	r.write("docs/benchmark_results/README.md", "index\n")
	r.commit()
	r.git("tag", "base")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit() {
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "c")
}

// changed runs the script against base..HEAD.
func (r *repo) changed() (string, error) {
	script, _ := filepath.Abs("changed-records.sh")
	cmd := exec.Command("bash", script, "base", "HEAD")
	cmd.Dir = r.dir
	out, err := cmd.Output()
	return string(out), err
}

func TestChangedRecords(t *testing.T) {
	const dir = "docs/benchmark_results/"
	cases := []struct {
		name   string
		change func(r *repo)
		want   []string
		fails  bool
	}{
		{"renamed and edited (R099)", func(r *repo) {
			r.git("mv", dir+"a-x-2026-11-29.md", dir+"a-x-2026-11-30.md")
			r.write(dir+"a-x-2026-11-30.md", "# a-x-2026-11-29\n\n```json decodebench-record\n{\"data_dir\": \"data/a-x-2026-11-29\"}\n```\n\n")
		}, []string{dir + "a-x-2026-11-30.md"}, false},
		{"only a data folder's runs.jsonl", func(r *repo) {
			r.write(dir+"data/b-x-2026-11-29/runs.jsonl", "{\"seq\": 1}\n")
		}, []string{dir + "b-x-2026-11-29.md"}, false},
		{"a data file deleted", func(r *repo) {
			r.git("rm", "-q", dir+"data/b-x-2026-11-29/scenario.yaml")
		}, []string{dir + "b-x-2026-11-29.md"}, false},
		{"a record copied", func(r *repo) {
			r.write(dir+"c-x-2026-11-29.md", "# a-x-2026-11-29\n\n```json decodebench-record\n{\"data_dir\": \"data/a-x-2026-11-29\"}\n```\n")
		}, []string{dir + "c-x-2026-11-29.md"}, false},
		{"record and data edited together", func(r *repo) {
			r.write(dir+"a-x-2026-11-29.md", "edited\n\n```json decodebench-record\n{\"data_dir\": \"data/a-x-2026-11-29\"}\n```\n")
			r.write(dir+"data/a-x-2026-11-29/runs.jsonl", "{\"seq\": 2}\n")
		}, []string{dir + "a-x-2026-11-29.md"}, false},
		{"the index only", func(r *repo) { r.write(dir+"README.md", "new index\n") }, nil, false},
		{"a record deleted with its folder", func(r *repo) {
			r.git("rm", "-q", "-r", dir+"a-x-2026-11-29.md", dir+"data/a-x-2026-11-29")
		}, nil, false},
		{"a data folder no record names", func(r *repo) {
			r.write(dir+"data/orphan/runs.jsonl", "{}\n")
		}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			c.change(r)
			r.commit()
			out, err := r.changed()
			if c.fails {
				if err == nil {
					t.Fatalf("want an error, got %q", out)
				}
				return
			}
			if err != nil {
				t.Fatalf("changed-records: %v", err)
			}
			got := strings.Fields(out)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("records to check: got %q, want %q", got, c.want)
			}
		})
	}
}

// The review job cannot be steered by the pull request it reviews, and
// every job is bounded and least-privileged.
func TestWorkflowHardening(t *testing.T) {
	b, err := os.ReadFile("decodebench.yml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, m := range regexp.MustCompile(`uses:\s*(\S+)`).FindAllStringSubmatch(src, -1) {
		if !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(m[1]) {
			t.Errorf("action %s is not pinned by commit", m[1])
		}
	}
	if n, want := strings.Count(src, "persist-credentials: false"), strings.Count(src, "actions/checkout@"); n != want {
		t.Errorf("%d of %d checkouts keep no credentials", n, want)
	}
	if n, jobs := strings.Count(src, "timeout-minutes:"), strings.Count(src, "runs-on:"); n != jobs {
		t.Errorf("%d of %d jobs have timeout-minutes", n, jobs)
	}
	for _, bad := range []string{`(?m)^\s*pull_request_target\s*:`, `diff-filter`, `contents:\s*write`} {
		if regexp.MustCompile(bad).MatchString(src) {
			t.Errorf("workflow matches %q", bad)
		}
	}
	for _, want := range []string{`working-directory: ${{ runner.temp }}/base`, `"$RUNNER_TEMP/base/scripts/ci/changed-records.sh"`, "Runner groups", "fork pull request"} {
		if !strings.Contains(src, want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
}

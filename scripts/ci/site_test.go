package ci

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Both workflows upload the records as a web site (decodebench site), and
// only decodebench.yml's pages job may publish it: on a push to the
// default branch (a push comes only from the repository itself, never
// from a fork), when the repository asks for it, with the only Pages and
// id-token permissions of the workflow, after the site job built it from
// that push.
func TestSiteIsAnArtifactAndPublishedOnlyFromTheDefaultBranch(t *testing.T) {
	type job struct {
		If          string            `yaml:"if"`
		Needs       any               `yaml:"needs"`
		Permissions map[string]string `yaml:"permissions"`
		Environment map[string]string `yaml:"environment"`
		Steps       []struct {
			Uses string         `yaml:"uses"`
			Run  string         `yaml:"run"`
			With map[string]any `yaml:"with"`
		} `yaml:"steps"`
	}
	for _, name := range []string{"decodebench.yml", prWorkflow} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			On   map[string]any `yaml:"on"`
			Jobs map[string]job `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(src, &wf); err != nil {
			t.Fatal(err)
		}
		sites, uploads := 0, 0
		for jn, j := range wf.Jobs {
			for _, s := range j.Steps {
				if strings.Contains(s.Run, `decodebench" site --no-cache --out "$RUNNER_TEMP/site"`) {
					sites++
				}
				if strings.HasPrefix(s.Uses, "actions/upload-artifact@") && s.With["path"] == "${{ runner.temp }}/site/" {
					uploads++
				}
				if strings.HasPrefix(s.Uses, "actions/deploy-pages@") && (name != "decodebench.yml" || jn != "pages") {
					t.Errorf("%s: job %s deploys to Pages", name, jn)
				}
			}
			if (j.Permissions["pages"] != "" || j.Permissions["id-token"] != "") && (name != "decodebench.yml" || jn != "pages") {
				t.Errorf("%s: job %s may write to Pages: %v", name, jn, j.Permissions)
			}
		}
		if sites == 0 || sites != uploads {
			t.Errorf("%s: %d site(s) written, %d uploaded", name, sites, uploads)
		}
		if name != "decodebench.yml" {
			continue
		}
		pages, ok := wf.Jobs["pages"]
		if !ok {
			t.Fatal("decodebench.yml has no pages job")
		}
		push := "github.event_name == 'push' && github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
		if !strings.Contains(pages.If, push) || !strings.Contains(pages.If, "vars.DECODEBENCH_PAGES == 'true'") || pages.Needs != "site" {
			t.Errorf("the pages job runs on %q after %v", pages.If, pages.Needs)
		}
		if !strings.Contains(wf.Jobs["site"].If, push) {
			t.Errorf("the site job runs on %q", wf.Jobs["site"].If)
		}
		if len(pages.Permissions) != 2 || pages.Permissions["pages"] != "write" || pages.Permissions["id-token"] != "write" || pages.Environment["name"] != "github-pages" {
			t.Errorf("the pages job has %v in %v", pages.Permissions, pages.Environment)
		}
		if _, ok := wf.On["pull_request_target"]; ok {
			t.Error("decodebench.yml triggers on pull_request_target")
		}
	}
}

package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/schema"
)

const (
	records    = "docs/benchmark_results"
	fleetSrc   = "identity-chaotic-epyc-2026-11-29" // a real record the runners' records are made from
	fleetOther = "identity-chaotic-h200-2026-12-02" // a real record of the same scenario on the H200
)

// fleetRepo is the repository the workflow runs in, as a bare "origin":
// the fleet scripts, and a records folder holding two real records of one
// scenario (the CPU VM's and the H200's) and their index.
func fleetRepo(t *testing.T) string {
	r := &repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	for _, s := range []string{"fleet-stage.sh", "fleet-gather.sh", "fleet-pr.sh"} {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		r.write("scripts/ci/"+s, string(b))
	}
	for _, stem := range []string{fleetSrc, fleetOther} {
		b, err := os.ReadFile(filepath.Join("..", "..", records, stem+".md"))
		if err != nil {
			t.Fatal(err)
		}
		r.write(records+"/"+stem+".md", string(b))
		if err := os.CopyFS(filepath.Join(r.dir, records, "data", stem), os.DirFS(filepath.Join("..", "..", records, "data", stem))); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(decodebenchBin(t), "index", "--no-cache", filepath.Join(r.dir, records)).CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	r.commit()
	origin := filepath.Join(t.TempDir(), "origin.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", r.dir, origin).CombinedOutput(); err != nil {
		t.Fatalf("clone --bare: %v\n%s", err, out)
	}
	return origin
}

// simulatedRunner is a runner of the fleet and how its record differs
// from the real one it is made from: the draft arm's rate scaled (its
// ratio to the baseline 0.384× on the CPU VM), and its machine.
type simulatedRunner struct {
	hw    string
	scale float64
	// The machine as the record would name it.
	cpu, gpu, arch, power string
	gen                   int
	share                 float64 // the baseline's roofline share
}

var fleetRunners = []simulatedRunner{
	{hw: "m5max", scale: 3.1, cpu: "Apple M5 Max", gen: 17, arch: "applegpu_g17s", power: "automatic", share: 0.61},
	{hw: "m1ultra", scale: 1.82, cpu: "Apple M1 Ultra", gen: 13, arch: "applegpu_g13d", power: "high power", share: 0.48},
	{hw: "h200", scale: 0.93, cpu: "Intel(R) Xeon(R) Processor", gpu: "NVIDIA H200", share: 0.05},
}

// runnerRecords makes each simulated runner's record (in dir/HW) from the
// real record, dated the day of the fleet campaign: its runs, analysis and
// Markdown are a record's, and each passes check.
func runnerRecords(t *testing.T, dir string) {
	day, _ := time.Parse("2006-01-02", "2026-12-03")
	for k, r := range fleetRunners {
		// Each runner's campaign starts an hour after the last: three
		// campaigns, not one counted three times.
		_, err := synthrecords.Generate(synthrecords.Spec{
			Source: filepath.Join("..", "..", records, fleetSrc+".md"), Dir: filepath.Join(dir, r.hw), N: 1, Start: day.Add(time.Duration(k) * time.Hour),
			Hardware: []string{r.hw}, Scale: func(int) (float64, float64) { return lowered(r.scale) },
			Mutate: func(_ int, rec *schema.Record) {
				m := rec.Machine
				m.CPUModel, m.GPUs = r.cpu, nil
				tel := &schema.PlatformInfo{Conditions: &schema.HostConditions{Time: rec.Method.Started, PowerMode: r.power}}
				if r.gen > 0 {
					tel.Chip, tel.GPUGeneration, tel.GPUArchitecture, tel.GPUGenerationSource = r.cpu, r.gen, r.arch, "ioreg"
				}
				if r.gpu != "" {
					m.GPUs = []schema.GPUInfo{{Name: r.gpu, Driver: "580.159.04", MemoryMiB: 143771}}
				}
				m.Telemetry = tel
				rec.Machine = m
				// Each arm's roofline as the harness writes it: its runs'
				// median rate over what the bandwidth allows (a
				// bandwidth chosen so the baseline's share is r.share);
				// check derives it again from the runs.
				const bytes = 111973248
				rate := func(arm string) float64 {
					return schema.RunsMedian(rec.Runs, arm, func(x schema.Run) (float64, bool) {
						v, ok := x.Metrics[schema.DecodeTokS]
						return v, ok && v > 0
					})
				}
				bw := rate("classic") * bytes / (r.share * 1e9)
				rec.Roofline = nil
				model := func(arm, name string) string {
					for _, m := range rec.EngineOf(arm).Models {
						if strings.HasSuffix(m.Arg, name) {
							return m.Arg
						}
					}
					return ""
				}
				for _, arm := range []string{"classic", "draft"} {
					x := rate(arm)
					a := schema.ArmRoofline{Arm: arm, DecodeTokS: x, Share: schema.RooflineShare(x, bytes, 0, bw), Effective: arm == "draft",
						Model: model(arm, "target.gguf"), Format: "gguf", BytesPerToken: bytes,
						BandwidthGBs: bw, Memory: "simulated", BandwidthSource: "measured: simulated", BandwidthMeasured: true}
					if arm == "draft" {
						a.DraftModel, a.DraftBytesPerToken = model(arm, "draft.gguf"), 15073280
					}
					rec.Roofline = append(rec.Roofline, a)
				}
			},
		})
		if err != nil {
			t.Fatalf("%s's record: %v", r.hw, err)
		}
	}
}

func fleetInputs() map[string]string {
	return map[string]string{"scenario": "llamacpp-identity-chaotic", "runners": `["m5max", "m1ultra", "h200"]`, "deliver": "pull-request", "wait_lock": "60m"}
}

// ghStub is a gh that logs its arguments and the pull request's body.
func ghStub(t *testing.T) (dir, log string) {
	dir = t.TempDir()
	log = filepath.Join(dir, "gh.log")
	stub := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + log + "\nwhile [ $# -gt 0 ]; do [ \"$1\" = --body-file ] && cat \"$2\" >> " + log + "; shift; done\n"
	if err := execfile.Write(filepath.Join(dir, "gh"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

// The fleet workflow, job by job, on this machine: three runners'
// campaign jobs (each in its own clone; decodebench run a stub that places
// the runner's record, made beforehand from a real one; staging and upload
// the workflow's own), the gather job with the real decodebench (gather,
// index, the regime tables in its summary), and the pull-request job
// pushing to the repository and opening the pull request through a gh
// that logs. The branch holds the three records, each passing check, and
// an index whose feature page has the regime table: one row per hardware,
// the two real ones included, and the draft arm's result regime-dependent.
func TestFleetWorkflow(t *testing.T) {
	origin := fleetRepo(t)
	src := t.TempDir()
	runnerRecords(t, src)
	f := newFleetRun(t, origin, fleetInputs())
	gh, ghLog := ghStub(t)
	f.env["PATH"] = gh + ":" + os.Getenv("PATH")
	for _, r := range fleetRunners {
		res := f.job("campaign", r.hw, installCampaignStub(t, src))
		if res.failed != "" {
			t.Fatalf("%s: campaign job failed at %q\n%s", r.hw, res.failed, res.log)
		}
		art := filepath.Join(f.store, "decodebench-fleet-"+r.hw+"-"+f.runID)
		recs, _ := filepath.Glob(filepath.Join(art, "*.md"))
		if len(recs) != 1 || !strings.Contains(recs[0], "-"+r.hw+"-2026-12-03") {
			t.Fatalf("%s's artifact holds %v\n%s", r.hw, recs, res.log)
		}
		if _, err := os.Stat(filepath.Join(art, "data", strings.TrimSuffix(filepath.Base(recs[0]), ".md"), "runs.jsonl")); err != nil {
			t.Errorf("%s's artifact lacks the data folder: %v", r.hw, err)
		}
	}
	g := f.job("gather", "", installBinary(t))
	if g.failed != "" {
		t.Fatalf("gather job failed at %q\n%s", g.failed, g.log)
	}
	t.Logf("gather:\n%s", g.log)
	summary, _ := os.ReadFile(g.summary)
	for _, want := range []string{"## decodebench gather into `docs/benchmark_results`", "| placed |", "## Regimes of `identity-chaotic`",
		"| `m5max` |", "| `m1ultra` |", "| `h200` |", "| `epyc` |", "**Regime-dependent:** `draft` changes sign (a gain on one, a loss on the other) between `epyc` and `m5max`"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("the gather job's summary lacks %q:\n%s", want, summary)
		}
	}
	p := f.job("pull-request", "", func(string) { t.Fatal("the pull-request job builds decodebench") })
	if p.failed != "" {
		t.Fatalf("pull-request job failed at %q\n%s", p.failed, p.log)
	}
	branch := "decodebench-fleet/" + f.runID
	check := filepath.Join(t.TempDir(), "check")
	if out, err := exec.Command("git", "clone", "-q", "-b", branch, origin, check).CombinedOutput(); err != nil {
		t.Fatalf("the branch %s was not pushed: %v\n%s", branch, err, out)
	}
	added, _ := filepath.Glob(filepath.Join(check, records, "*-2026-12-03.md"))
	if len(added) != 3 {
		t.Fatalf("the branch holds %d new records, want 3: %v", len(added), added)
	}
	all, _ := filepath.Glob(filepath.Join(check, records, "identity-chaotic-*.md"))
	if out, err := exec.Command(decodebenchBin(t), append([]string{"check", "--no-cache"}, all...)...).CombinedOutput(); err != nil {
		t.Errorf("a record on the branch fails check: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(check, records, "index", "identity-chaotic.md"))
	if err != nil {
		t.Fatal(err)
	}
	regime := string(page[strings.Index(string(page), "## Regimes"):])
	t.Logf("the feature page's regime section:\n%s", regime)
	rows := 0
	for _, l := range strings.Split(regime, "\n") {
		if strings.HasPrefix(l, "| `") {
			rows++
		}
	}
	for _, want := range []string{"[identity-chaotic-m5max-2026-12-03](../identity-chaotic-m5max-2026-12-03.md)", "Apple M5 Max (GPU generation 17, applegpu\\_g17s)",
		"automatic", "NVIDIA H200", "none (CPU: AMD EPYC)", "`classic` 61%, `draft` 73% (effective)", "**Regime-dependent:**"} {
		if !strings.Contains(regime, want) {
			t.Errorf("the regime section lacks %q", want)
		}
	}
	if rows != 4 {
		t.Errorf("the regime table has %d rows, want 4 (epyc, h200, m1ultra, m5max)", rows)
	}
	gh2, _ := os.ReadFile(ghLog)
	if !strings.Contains(string(gh2), "pr create --base main --head "+branch) || !strings.Contains(string(gh2), "**Regime-dependent:**") {
		t.Errorf("gh was not asked for the pull request with the regime table as its body:\n%s", gh2)
	}
}

// A runner whose record was changed after it was written (a number edited
// in its runs), or whose record's name is already a different record in
// the repository, is refused by the gather job, which fails: nothing is
// staged, so no pull request is opened, and the summary says why.
func TestFleetGatherRefuses(t *testing.T) {
	for _, c := range []struct {
		name, want string
		spoil      func(t *testing.T, art, origin string)
	}{
		{"tampered runs", "runs.jsonl has sha256", func(t *testing.T, art, _ string) {
			runs := filepath.Join(art, "data", "identity-chaotic-m1ultra-2026-12-03", "runs.jsonl")
			b, err := os.ReadFile(runs)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(runs, []byte(strings.Replace(string(b), `"decode_tok_s":`, `"decode_tok_s":1`, 1)), 0o644)
		}},
		{"a clash", "with other content", func(t *testing.T, art, origin string) {
			// After the runners cloned it, the repository got another
			// record of the same name (an earlier fleet run of the day,
			// merged): the runner's record clashes with it.
			other := t.TempDir()
			day, _ := time.Parse("2006-01-02", "2026-12-03")
			if _, err := synthrecords.Generate(synthrecords.Spec{Source: filepath.Join("..", "..", records, fleetSrc+".md"), Dir: other, N: 1, Start: day.Add(5 * time.Hour),
				Hardware: []string{"m1ultra"}, Scale: func(int) (float64, float64) { return lowered(2.5) }}); err != nil {
				t.Fatal(err)
			}
			r := &repo{t, filepath.Join(t.TempDir(), "w")}
			if out, err := exec.Command("git", "clone", "-q", origin, r.dir).CombinedOutput(); err != nil {
				t.Fatalf("clone: %v\n%s", err, out)
			}
			if err := os.CopyFS(filepath.Join(r.dir, records), os.DirFS(other)); err != nil {
				t.Fatal(err)
			}
			r.commit()
			r.git("push", "-q", "origin", "main")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			origin := fleetRepo(t)
			src := t.TempDir()
			runnerRecords(t, src)
			f := newFleetRun(t, origin, fleetInputs())
			for _, r := range fleetRunners {
				if res := f.job("campaign", r.hw, installCampaignStub(t, src)); res.failed != "" {
					t.Fatalf("%s: %q\n%s", r.hw, res.failed, res.log)
				}
			}
			c.spoil(t, filepath.Join(f.store, "decodebench-fleet-m1ultra-"+f.runID), origin)
			g := f.job("gather", "", installBinary(t))
			summary, _ := os.ReadFile(g.summary)
			t.Logf("gather:\n%s\nsummary:\n%s", g.log, summary)
			if g.failed != "Gather, check and index the records" {
				t.Fatalf("the gather job failed at %q, want the gather step", g.failed)
			}
			if !strings.Contains(g.log, "refused") || !strings.Contains(g.log, c.want) || !strings.Contains(string(summary), c.want) {
				t.Errorf("neither the log nor the summary says the record was refused for %q", c.want)
			}
			if _, err := os.Stat(filepath.Join(f.store, "decodebench-fleet-gathered-"+f.runID)); err == nil {
				t.Errorf("the gathered records were uploaded although one was refused")
			}
		})
	}
}

// lowered scales a simulated runner's arm to ratio times its baseline by
// lowering one of the two, never raising a decode rate: check holds a
// run's decode rate to what its log's engine timings allow, and a rate
// raised past them is a forged one.
func lowered(ratio float64) (base, arm float64) {
	if ratio > 1 {
		return 1 / ratio, 1
	}
	return 1, ratio
}

// A runner's campaign job uploads the record its run left whatever the
// run's exit status, and fails unless the run ended with a verdict (0, 2
// or 3): a FAILED campaign (1), an interrupted one (129, 130, 143) or a
// crash (a Go panic exits 2 too, but leaves no record, and the staging
// step fails on that) fails the runner's job.
func TestFleetCampaignJobFailsOnAnUnfinishedCampaign(t *testing.T) {
	origin := fleetRepo(t)
	src := t.TempDir()
	runnerRecords(t, src)
	for _, c := range []struct {
		code  string
		fails bool
	}{{"0", false}, {"2", false}, {"3", false}, {"1", true}, {"130", true}, {"143", true}, {"129", true}, {"134", true}} {
		f := newFleetRun(t, origin, fleetInputs())
		f.env["CAMPAIGN_EXIT"] = c.code
		res := f.job("campaign", "m5max", installCampaignStub(t, src))
		switch {
		case c.fails && res.failed != "Fail on a campaign that did not finish":
			t.Errorf("exit %s: the job failed at %q, want the last step\n%s", c.code, res.failed, res.log)
		case !c.fails && res.failed != "":
			t.Errorf("exit %s: the job failed at %q\n%s", c.code, res.failed, res.log)
		}
		if recs, _ := filepath.Glob(filepath.Join(f.store, "decodebench-fleet-m5max-"+f.runID, "*.md")); len(recs) != 1 {
			t.Errorf("exit %s: the artifact holds %v, want the record", c.code, recs)
		}
	}
}

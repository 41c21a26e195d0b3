package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// fakeBinary writes an executable script that answers --version.
func fakeBinary(t *testing.T, path, version string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := execfile.Write(path, []byte("#!/bin/sh\necho '"+version+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func gitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@t"}, {"config", "user.name", "t"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte("int main;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "."}, {"commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func buildsScenario(base, head, extra string) string {
	return `feature: t
engine:
  preset: llama.cpp
  command: [` + base + `, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: base
  - name: head
    engine:
      command: [` + head + `, --port, "${PORT}"]
` + extra + `baseline: base
schedule: {rounds: 6}
counters:
  - name: build
    version: output
    capture: 'build (\d+)'
    expect: {base: "== 1", head: "== 2"}
unmeasured: [nothing]
`
}

// Each distinct engine is identified once, with its own version; the
// record lists both engines with their arms and is v4; a version counter
// reads each arm's own engine.
func TestEngineSetIdentifiesEachEngine(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	c := testCampaign(t, buildsScenario(base, head, ""))
	es := identifyEngines(context.Background(), c.scenario)
	if err := es.refuse(c.scenario); err != nil {
		t.Fatal(err)
	}
	if es.version("base") != "srv build 1" || es.version("head") != "srv build 2" {
		t.Errorf("versions: %q, %q", es.version("base"), es.version("head"))
	}
	rec := &schema.Record{Schema: schema.Schema}
	es.record(rec, "base")
	if rec.Schema != schema.SchemaV4 || len(rec.Engines) != 2 || rec.Engine.Path != base || rec.EngineOf("head").Path != head {
		t.Errorf("record engines: %s %+v", rec.Schema, rec.Engines)
	}
	// A single engine stays a v3 record with one identity.
	one := testCampaign(t, testScenario)
	es1 := identifyEngines(context.Background(), one.scenario)
	rec1 := &schema.Record{Schema: schema.Schema}
	es1.record(rec1, "a")
	if rec1.Schema != schema.Schema || rec1.Engines != nil || len(es1.ids) != 1 {
		t.Errorf("one engine: %s, %d engines", rec1.Schema, len(rec1.Engines))
	}
	c.engines = es
	run := schema.Run{Arm: "head"}
	if err := c.observe(engine.Observation{}, &run); err != nil {
		t.Fatal(err)
	}
	if got := run.Counters["build"]; got.Text != "2" || got.Value != 2 {
		t.Errorf("version counter of head: %+v", got)
	}
}

// Different files with the same content, the same arguments and the same
// environment are an accidental A/A: refused unless one arm is a control.
func TestEngineSetRefusesByteIdenticalArms(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 1")
	src := strings.Replace(buildsScenario(base, head, ""), `expect: {base: "== 1", head: "== 2"}`, `expect: {base: "== 1", head: "== 1"}`, 1) + "allow_unverified: test\n"
	c := testCampaign(t, src)
	err := identifyEngines(context.Background(), c.scenario).refuse(c.scenario)
	if err == nil || !strings.Contains(err.Error(), "byte-identical") {
		t.Fatalf("want a refusal, got %v", err)
	}
	ctl := testCampaign(t, strings.Replace(src, "  - name: head\n", "  - name: other\n    args: [--x]\n  - name: head\n    control: true\n", 1))
	if err := identifyEngines(context.Background(), ctl.scenario).refuse(ctl.scenario); err != nil {
		t.Errorf("a control arm is allowed: %v", err)
	}
}

// With a source checkout: a dirty tree or a binary older than the last
// commit is refused, unless allow_dirty gives a reason, which the identity
// then carries.
func TestEngineSetSourceFreshness(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "src")
	os.MkdirAll(repo, 0o755)
	gitRepo(t, repo)
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	withSource := func(extra string) string {
		return strings.Replace(buildsScenario(base, head, ""), `      command: [`+head, "      source: "+repo+"\n"+extra+"      command: ["+head, 1)
	}
	refusal := func(src string) (error, *engineSet) {
		c := testCampaign(t, src)
		es := identifyEngines(context.Background(), c.scenario)
		return es.refuse(c.scenario), es
	}
	// Fresh: built after the commit, clean tree.
	if err, es := refusal(withSource("")); err != nil || es.of("head").SourceCommit == "" {
		t.Fatalf("fresh build refused (%v) or no commit: %+v", err, es.of("head"))
	}
	// Stale: the binary predates the commit.
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(head, old, old)
	if err, _ := refusal(withSource("")); err == nil || !strings.Contains(err.Error(), "older than the last commit") {
		t.Errorf("stale binary: %v", err)
	}
	// Dirty as well.
	os.WriteFile(filepath.Join(repo, "main.c"), []byte("int main2;\n"), 0o644)
	err, _ := refusal(withSource(""))
	if err == nil || !strings.Contains(err.Error(), "uncommitted changes") || !strings.Contains(err.Error(), "allow_dirty") {
		t.Errorf("dirty tree: %v", err)
	}
	err, es := refusal(withSource("      allow_dirty: \"work in progress\"\n"))
	id := es.of("head")
	if err != nil || id.AllowDirty != "work in progress" || !id.BinaryOlderThanSource || !dirty(id) {
		t.Errorf("allowed: %v, %+v", err, id)
	}
	if es.of("base").AllowDirty != "" {
		t.Error("the base engine has no source and no allowance")
	}
}

// A binary replaced after identification fails the check at run start; one
// only touched (same content) passes it.
func TestEngineSetNoticesReplacedBinary(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	c := testCampaign(t, buildsScenario(base, head, ""))
	es := identifyEngines(context.Background(), c.scenario)
	later := time.Now().Add(time.Hour)
	os.Chtimes(head, later, later)
	if err := es.check("head"); err != nil {
		t.Errorf("touched only: %v", err)
	}
	fakeBinary(t, head+".new", "srv build 3")
	os.Rename(head+".new", head)
	if err := es.check("head"); err == nil || !strings.Contains(err.Error(), "changed since the campaign started") {
		t.Errorf("replaced: %v", err)
	}
	if err := es.check("base"); err != nil {
		t.Errorf("base untouched: %v", err)
	}
	// A resume sees the change per arm.
	st := state{ArmEngines: map[string]string{"base": hashKey(es.of("base")), "head": hashKey(es.of("head"))}}
	again := identifyEngines(context.Background(), c.scenario)
	if got := again.changedSince(st); len(got) != 1 || !strings.HasPrefix(got[0], "arm head ") {
		t.Errorf("changed since: %v", got)
	}
}

// --resume refuses when any arm's engine changed since the campaign
// started, naming the arm, before it measures anything.
func TestResumeRefusesAChangedArmEngine(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	s := parseTest(t, buildsScenario(base, head, ""))
	es := identifyEngines(context.Background(), s)
	_, dataDir := craftedFolder(t, s, "t-xeon-2026-01-01")
	st, err := readState(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	st.EngineSHA256, st.ArmEngines = es.of("base").SHA256, es.armHashes()
	if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
		t.Fatal(err)
	}
	fakeBinary(t, head, "srv build 3") // rebuilt between the interruption and the resume
	_, err = Resume(context.Background(), dataDir, s, Options{})
	if err == nil || !strings.Contains(err.Error(), "arm head ran sha256 ") || strings.Contains(err.Error(), "arm base") {
		t.Fatalf("want a refusal naming arm head, got %v", err)
	}
}

// An arm's engine whose binary does not have the sha256 its scenario pins
// (a build hashed right after it was built, replaced since) is refused
// before anything is written; the pinned build runs.
func TestEngineSetRefusesABinaryNotPinned(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	built, _ := engine.FileSHA256(head)
	refusal := func() error {
		c := testCampaign(t, buildsScenario(base, head, "      sha256: "+strings.ToUpper(built)+"\n"))
		return identifyEngines(context.Background(), c.scenario).refuse(c.scenario)
	}
	if err := refusal(); err != nil {
		t.Fatalf("the pinned build is refused: %v", err)
	}
	fakeBinary(t, head, "srv build 3") // replaced after it was hashed
	err := refusal()
	if err == nil || !strings.Contains(err.Error(), "arm head") || !strings.Contains(err.Error(), "not the "+strings.ToUpper(built)) {
		t.Errorf("a binary the scenario does not pin: %v", err)
	}
}

// A negative control whose engine is another file runs only if that file
// hashes as the baseline's (a copy): one with other content is refused
// before anything runs, naming both engines.
func TestEngineSetRefusesAControlOfAnotherBinary(t *testing.T) {
	dir := t.TempDir()
	base := fakeBinary(t, filepath.Join(dir, "base", "srv"), "srv build 1")
	head := fakeBinary(t, filepath.Join(dir, "head", "srv"), "srv build 2")
	copied := fakeBinary(t, filepath.Join(dir, "copy", "srv"), "srv build 1")
	other := fakeBinary(t, filepath.Join(dir, "other", "srv"), "srv build 1, faster")
	control := func(bin string) string {
		return strings.Replace(buildsScenario(base, head, ""), "baseline: base\n",
			"  - name: ctl\n    control: true\n    engine:\n      command: ["+bin+", --port, \"${PORT}\"]\nbaseline: base\n", 1)
	}
	c := testCampaign(t, control(copied))
	if err := identifyEngines(context.Background(), c.scenario).refuse(c.scenario); err != nil {
		t.Errorf("a control running a copy of the baseline's binary is refused: %v", err)
	}
	c = testCampaign(t, control(other))
	err := identifyEngines(context.Background(), c.scenario).refuse(c.scenario)
	if err == nil || !strings.Contains(err.Error(), "arm ctl is a negative control, but its engine "+other) ||
		!strings.Contains(err.Error(), "is not the baseline base's "+base) {
		t.Fatalf("want the control of another binary refused, got %v", err)
	}
}

// An engine that does not resolve is refused with the hint of the
// variable its command comes from, placed at the scenario's line: it
// advised ${LLAMA_SERVER} whatever the scenario took.
func TestUnresolvedEngineHintIsTheScenarios(t *testing.T) {
	src := strings.Replace(testScenario, "command: [llama-server,", "command: [\"${MY_ENGINE}\",", 1)
	src = strings.Replace(src, "engine:\n", "vars: {MY_ENGINE: no-such-engine-here}\nengine:\n", 1)
	s := parseTest(t, src)
	err := identifyEngines(context.Background(), s).refuse(s)
	if err == nil || !strings.Contains(err.Error(), "; t.yaml:5:13: engine.command[0]: set MY_ENGINE to its path, or put it on PATH; nothing was written") ||
		strings.Contains(err.Error(), "LLAMA_SERVER") {
		t.Fatalf("got %v", err)
	}
}

// An engine file that exists without its execute bit is refused with its
// fix (chmod), not told to set the variable it already comes from; validate
// warns the same.
func TestEngineNotExecutableSaysChmod(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "noexec")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(testScenario, "command: [llama-server,", "command: [\"${MY_ENGINE}\",", 1)
	src = strings.Replace(src, "engine:\n", "vars: {MY_ENGINE: "+bin+"}\nengine:\n", 1)
	s := parseTest(t, src)
	err := identifyEngines(context.Background(), s).refuse(s)
	if err == nil || !strings.Contains(err.Error(), "exists but is not executable: chmod +x "+bin) || strings.Contains(err.Error(), "set MY_ENGINE") {
		t.Fatalf("got %v", err)
	}
	_, warns, _ := scenarios.Parse("t.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if !strings.Contains(fmt.Sprint(warns), "exists but is not executable") {
		t.Errorf("validate's warnings: %v", warns)
	}
}

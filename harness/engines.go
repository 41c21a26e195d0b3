package harness

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// engineSet is a campaign's engines: one identity per distinct engine the
// arms run (scenarios.Scenario.Engines), taken once when the campaign
// starts, and the binaries' file state, checked at every run start so that
// a binary rebuilt or replaced under the campaign fails the run that sees
// it.
type engineSet struct {
	uses []scenarios.EngineUse
	ids  []schema.EngineInfo
	// versions is each engine's version output: its version command's,
	// else its --version (version counters read it).
	versions []string
	byArm    map[string]int
	// envs are the environments each engine was identified in and runs
	// with; executed what it resolved to then: every run start resolves
	// the engine again in that environment and checks the files
	// (binwatch.go).
	envs     [][]string
	executed []engine.Executed
	watched  [][]*watchedFile
	// unidentified says, per engine, why one that resolves cannot be
	// identified (engine.UnidentifiedError); nil for one that can.
	unidentified []error
	// runIdentical runs byte-identical engines of two arms rather than
	// refusing them (Options.RunIdentical).
	runIdentical bool
}

// identifyEngines identifies every distinct engine of the scenario.
func identifyEngines(ctx context.Context, s *scenarios.Scenario) *engineSet {
	es := &engineSet{uses: s.Engines(), byArm: map[string]int{}}
	for i, u := range es.uses {
		for _, arm := range u.Arms {
			es.byArm[arm] = i
		}
		l := u.Launch
		// The arm's own environment: its PATH finds the command, its
		// loader variables choose the libraries (EngineKey keeps arms
		// whose loader variables differ apart).
		env := engine.Environ(l.Env)
		id, x, unidentified := engine.IdentifyExecuted(ctx, l.Binary(), env, l.Source)
		es.unidentified = append(es.unidentified, unidentified)
		version := id.Version
		if vc := l.VersionCommand; len(vc) > 0 {
			v, err := engine.VersionOf(ctx, vc, l.EngineEnv)
			if err != nil {
				id.Problems = append(id.Problems, fmt.Sprintf("version command %s: %v", strings.Join(vc, " "), err))
			}
			if v != "" {
				id.Version = strings.TrimSpace(id.Version + "\n" + strings.Join(vc, " ") + ": " + v)
				version = v
			}
		}
		args := slices.Clone(l.EngineCommand)
		for _, arm := range u.Arms {
			args = append(args, s.Launch(arm).Args...)
		}
		models, problems := engine.ModelFiles(args)
		id.Models = models
		id.Problems = append(id.Problems, problems...)
		if l.AllowDirty != "" && (dirty(id) || id.BinaryOlderThanSource) {
			id.AllowDirty = l.AllowDirty
		}
		es.ids = append(es.ids, id)
		es.versions = append(es.versions, version)
		es.envs = append(es.envs, env)
		es.executed = append(es.executed, x)
		es.watched = append(es.watched, watch(id))
	}
	return es
}

// sayProblems prints what identifying the engines found wrong without
// refusing them (the record lists it too): a user's wrapper script whose
// binary cannot be named, a library not found, a version probe that
// failed.
func (es *engineSet) sayProblems(p *Progress) {
	for i, id := range es.ids {
		for _, pr := range id.Problems {
			p.Printf("engine %s (arm %s): %s", orNone(id.Path), strings.Join(es.uses[i].Arms, ", "), pr)
		}
	}
}

func dirty(id schema.EngineInfo) bool { return id.SourceDirty != nil && *id.SourceDirty }

// of returns the identity of the engine arm runs.
func (es *engineSet) of(arm string) schema.EngineInfo { return es.ids[es.byArm[arm]] }

// executable is the file the engine of arm was identified by: what its
// runs execute (engine.Config.Executable), empty when the set is nil.
func (es *engineSet) executable(arm string) string {
	if es == nil {
		return ""
	}
	i, ok := es.byArm[arm]
	if !ok {
		return ""
	}
	return es.ids[i].Path
}

// version is the version output of the engine arm runs.
func (es *engineSet) version(arm string) string {
	if es == nil {
		return ""
	}
	i, ok := es.byArm[arm]
	if !ok {
		return ""
	}
	return es.versions[i]
}

// refuse returns why the campaign must not start: an engine that does not
// resolve or cannot be identified (it cannot run, or what it runs cannot
// be hashed), a source checkout that is dirty or newer than its binary
// (unless the scenario allows it), a binary whose hash is not the one the
// scenario pins, a negative control whose binary is not the baseline's,
// or two arms that run byte-identical
// binaries with the same arguments and environment, neither a negative
// control (an accidental A/A comparison).
func (es *engineSet) refuse(s *scenarios.Scenario) error {
	for i, id := range es.ids {
		u := es.uses[i]
		if id.Path == "" {
			// Where the scenario names it, and how to set it as the
			// command the user ran does: the variable it comes from,
			// with reproduce's --var, or compare's --base and --head.
			if bin := u.Launch.Binary(); scenarios.NotExecutable(bin) {
				return fmt.Errorf("engine %q exists but is not executable: chmod +x %s; nothing was written", bin, bin)
			}
			what := fmt.Sprintf("engine %q does not resolve (%s)", u.Launch.Binary(), strings.Join(id.Problems, "; "))
			return fmt.Errorf("%s; %s; nothing was written", what, s.EngineHint(u.Arms[0]))
		}
		if err := es.unidentified[i]; err != nil {
			how := "make it runnable where it is, or name the binary itself (a wrapper copied away from the files it names relative to itself runs none of them)"
			return fmt.Errorf("arm %s: %v: %s; nothing was written", strings.Join(u.Arms, ", "), err, how)
		}
		if id.AllowDirty != "" {
			continue
		}
		var why []string
		if dirty(id) {
			why = append(why, fmt.Sprintf("its source %s has uncommitted changes", id.SourceDir))
		}
		if id.BinaryOlderThanSource {
			why = append(why, fmt.Sprintf("the binary %s is older than the last commit of %s (%.12s): it was not built from it", binaryOf(id), id.SourceDir, id.SourceCommit))
		}
		if len(why) > 0 {
			return fmt.Errorf("engine %s (arm %s): %s; rebuild from a clean checkout, or give allow_dirty: \"<why>\" beside its source; nothing was written",
				id.Path, strings.Join(u.Arms, ", "), strings.Join(why, ", and "))
		}
	}
	if err := es.pinned(s); err != nil {
		return err
	}
	if err := es.controlsHashed(s); err != nil {
		return err
	}
	return es.sameBinaries(s)
}

// controlsHashed refuses a negative control whose engine is another file
// than the baseline's (a copy, which the scenario may name) and does not
// hash as the baseline's: its binary, the binary a wrapper names and
// the libraries it links (schema.EngineInfo.HashKey). The scenario holds the rest of its launch
// to the baseline's when it loads (scenarios, validateControls); this is
// where its binary is compared, once, before any run starts.
func (es *engineSet) controlsHashed(s *scenarios.Scenario) error {
	base, ok := es.byArm[s.Baseline]
	if !ok {
		return nil
	}
	ib := es.ids[base]
	for _, a := range s.Arms {
		i, ok := es.byArm[a.Name]
		if !a.Control || a.Name == s.Baseline || !ok || i == base {
			continue
		}
		ic := es.ids[i]
		if ic.SHA256 != "" && hashKey(ic) == hashKey(ib) {
			continue
		}
		what := fmt.Sprintf("arm %s is a negative control, but its engine %s (sha256 %s) is not the baseline %s's %s (sha256 %s)",
			a.Name, ic.Path, orNone(abbrevHash(hashKey(ic))), s.Baseline, ib.Path, orNone(abbrevHash(hashKey(ib))))
		return fmt.Errorf("%s: a control runs the baseline's binary, or a copy of it; nothing was written", what)
	}
	return nil
}

// pinned refuses an arm whose engine binary does not have the sha256 its
// scenario pins (engine.sha256, arms[].engine.sha256): it is not the
// build the scenario names. A pin covers what runs: for a wrapper script
// whose binary decodebench identifies (its marker, or its exec line), the
// pin is that binary's hash; a pin of the wrapper's own hash is refused,
// naming the binary and its hash, since the binary behind an unchanged
// wrapper may have been replaced.
func (es *engineSet) pinned(s *scenarios.Scenario) error {
	for _, l := range s.Launches() {
		id := es.of(l.Arm)
		runs, got := id.Path, id.SHA256
		if id.RealBinary != "" {
			runs, got = id.RealBinary, id.RealSHA256
		}
		if l.SHA256 == "" || (got != "" && strings.EqualFold(got, l.SHA256)) {
			continue
		}
		if id.RealBinary != "" && strings.EqualFold(id.SHA256, l.SHA256) {
			return fmt.Errorf("engine %s (arm %s) is a wrapper script that runs %s (sha256 %s): its sha256 pins only the script, not the binary it runs; "+
				"pin that binary's hash (sha256 %s); nothing was written", id.Path, l.Arm, runs, orNone(got), orNone(got))
		}
		what := fmt.Sprintf("engine %s (arm %s) has sha256 %s, not the %s its scenario pins (sha256)", runs, l.Arm, orNone(got), l.SHA256)
		if id.RealBinary != "" {
			what = fmt.Sprintf("engine %s (arm %s) runs %s, which has sha256 %s, not the %s its scenario pins (sha256)", id.Path, l.Arm, runs, orNone(got), l.SHA256)
		}
		return fmt.Errorf("%s: it was rebuilt or replaced since it was hashed, or the pin names another build; nothing was written", what)
	}
	return nil
}

// sameBinaries refuses two arms, neither a control, whose engines are
// different files with the same content and whose arguments and
// environment are the same (identical command lines are refused at load).
func (es *engineSet) sameBinaries(s *scenarios.Scenario) error {
	if es.runIdentical {
		return nil
	}
	ls := s.Launches()
	for j := range ls {
		for i := 0; i < j; i++ {
			a, b := ls[i], ls[j]
			ea, eb := es.byArm[a.Arm], es.byArm[b.Arm]
			if s.Arms[i].Control || s.Arms[j].Control || ea == eb {
				continue
			}
			ia, ib := es.ids[ea], es.ids[eb]
			if ia.SHA256 == "" || hashKey(ia) != hashKey(ib) ||
				!slices.Equal(a.Command[1:], b.Command[1:]) || !sameEnv(a.Env, b.Env) {
				continue
			}
			return &IdenticalEngines{Arms: [2]string{a.Arm, b.Arm}, Paths: [2]string{ia.Path, ib.Path}, Real: [2]string{ia.RealBinary, ib.RealBinary}, SHA256: ia.SHA256}
		}
	}
	return nil
}

func sameEnv(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func binaryOf(id schema.EngineInfo) string {
	if id.RealBinary != "" {
		return id.RealBinary
	}
	return id.Path
}

// record puts the identities into the record: Engine is the baseline's;
// when the arms ran more than one engine, Engines lists each with its arms
// (a record of a version before SchemaV5 is then v4).
func (es *engineSet) record(rec *schema.Record, baseline string) {
	rec.Engine = es.of(baseline)
	rec.Engines = nil
	if len(es.ids) < 2 {
		return
	}
	for i, id := range es.ids {
		rec.Engines = append(rec.Engines, schema.ArmsEngine{Arms: slices.Clone(es.uses[i].Arms), EngineInfo: id})
	}
	if rec.Schema == schema.Schema {
		rec.Schema = schema.SchemaV4
	}
}

// engineNow says what an engine identity is now: its path and hash, or
// that its command does not resolve, or that its binary cannot be hashed.
func engineNow(id schema.EngineInfo) string {
	why := strings.Join(id.Problems, "; ")
	switch {
	case id.Path == "":
		return fmt.Sprintf("now %q does not resolve (%s)", id.Command, orNone(why))
	case id.SHA256 == "":
		return fmt.Sprintf("now %s cannot be hashed (%s)", id.Path, orNone(why))
	}
	return fmt.Sprintf("now %s has sha256 %s", id.Path, abbrevHash(hashKey(id)))
}

// abbrevHash is a hash key's first hash, shortened as messages show it.
func abbrevHash(key string) string {
	h, _, _ := strings.Cut(key, " ")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}

// sameLoaded refuses two arms, neither a control, that run different
// engine files whose binaries are byte-identical, with the same arguments
// and environment, and whose runs loaded byte-identical libraries (by
// name and sha256): the candidates beside two installs may differ (an
// extra backend one of them never loads) while the code that ran is the
// same, an accidental A/A comparison that sameBinaries cannot see before
// the engines run.
func (es *engineSet) sameLoaded(s *scenarios.Scenario, a, b string, la, lb []schema.FileSum) error {
	if es == nil || es.runIdentical {
		return nil
	}
	ia, oka := es.byArm[a]
	ib, okb := es.byArm[b]
	if !oka || !okb || ia == ib || loadedKey(la) != loadedKey(lb) {
		return nil
	}
	ea, eb := es.ids[ia], es.ids[ib]
	if ea.SHA256 == "" || ea.SHA256 != eb.SHA256 || ea.RealSHA256 != eb.RealSHA256 {
		return nil
	}
	var arms [2]*scenarios.Launch
	for i, l := range s.Launches() {
		if s.Arms[i].Control && (l.Arm == a || l.Arm == b) {
			return nil
		}
		switch l.Arm {
		case a:
			arms[0] = &l
		case b:
			arms[1] = &l
		}
	}
	if arms[0] == nil || arms[1] == nil || !slices.Equal(arms[0].Command[1:], arms[1].Command[1:]) || !sameEnv(arms[0].Env, arms[1].Env) {
		return nil
	}
	what := fmt.Sprintf("arms %q and %q ran byte-identical binaries (%s and %s, sha256 %.12s) that loaded byte-identical libraries", a, b, ea.Path, eb.Path, ea.SHA256)
	return fmt.Errorf("%s, with the same arguments and environment: an accidental A/A comparison; %s", what,
		"build the arms from different sources, or mark one control: true")
}

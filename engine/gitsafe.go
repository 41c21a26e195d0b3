package engine

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
)

// gitGuardKey is a configuration key decodebench sets through the
// environment for every git it runs on a repository it does not control.
// GitListFilters lists it beside the filter keys: a git that does not
// list it (one older than 2.31) ignored GIT_CONFIG_COUNT, and with it
// every override below, and is not used.
const gitGuardKey = "decodebench.gitguard"

// GitListFilters are the arguments (after git's own options) that list the
// name of every filter.<driver>.<key> of every configuration git reads for
// the repository (global, local, worktree, what they include; the system
// one is ignored, GitEnv), NUL-separated (a driver's name may hold any
// character but NUL and newline, '=' and '.' included), with gitGuardKey.
// They run with GitListEnv; their output is what GitEnv takes.
var GitListFilters = []string{"config", "--null", "--name-only", "--get-regexp", `^(filter\.|decodebench\.gitguard$)`}

// GitOptions are git's global options for a repository decodebench does
// not control: no pager. Its configuration is overridden through the
// environment (GitEnv), not by -c, which splits its argument at the first
// '=' and so cannot name the key of a filter driver called "x=y".
func GitOptions() []string { return []string{"--no-pager"} }

// gitFixed are the overrides of every such git: no hook (core.hooksPath
// points at nothing), no fsmonitor, no pager, no transport (a submodule is
// never fetched, nor recursed into), no signature verification
// (gpg.program), no automatic gc or maintenance.
var gitFixed = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"core.untrackedCache", "false"},
	{"protocol.allow", "never"},
	{"submodule.recurse", "false"},
	{"log.showSignature", "false"},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
	{gitGuardKey, "on"},
}

// ErrGitTooOld is a git that ignores GIT_CONFIG_COUNT (older than 2.31):
// the overrides that keep a repository's commands from running cannot be
// given to it.
var ErrGitTooOld = errors.New("this git ignores GIT_CONFIG_COUNT (git 2.31 or later is needed to run nothing a repository's configuration names)")

// GitListError is the error of a GitListFilters command that failed:
// ErrGitTooOld where git exited 1 (it found no key, not even gitGuardKey).
func GitListError(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return ErrGitTooOld
	}
	return err
}

// GitListEnv is env for the GitListFilters command (gitFixed, no filter
// known yet: git config filters nothing).
func GitListEnv(env []string) []string { return gitEnv(env, gitFixed) }

// GitEnv is env for every other git command on a repository decodebench
// does not control, given listing, GitListFilters' output there: gitFixed
// and every filter driver listed emptied (clean, smudge, and process, a
// long-running filter) and made optional, so that checkout and status
// copy bytes as they are; the system configuration and any pager
// ignored, no prompt for credentials, no optional lock taken (status does
// not write the index), no external diff. The overrides are
// GIT_CONFIG_COUNT pairs (exact keys), which git passes on to the git
// commands it starts itself; the command-line configuration inherited
// from env (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT, GIT_CONFIG) is
// dropped, so that nothing outranks them and git config lists what the
// command reads. ErrGitTooOld when the listing lacks gitGuardKey.
func GitEnv(env []string, listing string) ([]string, error) {
	names, guarded := filterNames(listing)
	if !guarded {
		return nil, ErrGitTooOld
	}
	kv := append([][2]string{}, gitFixed...)
	for _, d := range names {
		for _, k := range []string{"clean", "smudge", "process"} {
			kv = append(kv, [2]string{"filter." + d + "." + k, ""})
		}
		kv = append(kv, [2]string{"filter." + d + ".required", "false"})
	}
	return gitEnv(env, kv), nil
}

func gitEnv(env []string, kv [][2]string) []string {
	var out []string
	for _, e := range env {
		k, _, _ := strings.Cut(e, "=")
		if k == "GIT_CONFIG_PARAMETERS" || k == "GIT_CONFIG_COUNT" || k == "GIT_CONFIG" ||
			strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		out = append(out, e)
	}
	out = append(out,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_EXTERNAL_DIFF=",
		"GIT_CONFIG_COUNT="+strconv.Itoa(len(kv)),
	)
	for i, p := range kv {
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+p[0], "GIT_CONFIG_VALUE_"+n+"="+p[1])
	}
	return out
}

// filterNames returns the driver names of NUL-separated
// filter.<name>.<key> configuration names (the name is what lies between
// the first and the last dot; it may be empty), and whether gitGuardKey
// is among them.
func filterNames(names string) (drivers []string, guarded bool) {
	seen := map[string]bool{}
	for _, n := range strings.Split(names, "\x00") {
		if n == gitGuardKey {
			guarded = true
		}
		rest, ok := strings.CutPrefix(n, "filter.")
		i := strings.LastIndexByte(rest, '.')
		if !ok || i < 0 || seen[rest[:i]] {
			continue
		}
		seen[rest[:i]] = true
		drivers = append(drivers, rest[:i])
	}
	return drivers, guarded
}

package engine

import "strings"

// GitListFilters are the arguments (after git's own options) that list the
// configuration's filter.<driver>.<key> names, NUL-separated; git exits 1
// when there are none. Their output is what GitOptions takes.
var GitListFilters = []string{"config", "--null", "--name-only", "--get-regexp", `^filter\.`}

// GitOptions are git's global options for a repository decodebench does
// not control (an engine source folder a scenario names, the repository a
// bisect checks out), whose configuration may name commands to run: hooks
// (core.hooksPath points at nothing), fsmonitor, every content filter
// driver that filters (GitListFilters' output) emptied and made optional,
// so that checkout and status copy bytes as they are, no pager, no
// transport (a submodule is never fetched, nor recursed into), no
// signature verification (gpg.program), no automatic gc or maintenance.
// git passes them on to the git commands it starts itself.
func GitOptions(filters string) []string {
	opts := []string{
		"--no-pager",
		"-c", "core.fsmonitor=false",
		"-c", "core.hooksPath=/dev/null",
		"-c", "core.pager=cat",
		"-c", "core.untrackedCache=false",
		"-c", "protocol.allow=never",
		"-c", "submodule.recurse=false",
		"-c", "log.showSignature=false",
		"-c", "gc.auto=0",
		"-c", "maintenance.auto=false",
	}
	for _, d := range filterNames(filters) {
		for _, k := range []string{"clean", "smudge", "process"} {
			opts = append(opts, "-c", "filter."+d+"."+k+"=")
		}
		opts = append(opts, "-c", "filter."+d+".required=false")
	}
	return opts
}

// GitEnv is env for such a git: the system configuration and any pager
// ignored, no prompt for credentials, no optional lock taken (status does
// not write the index), no external diff.
func GitEnv(env []string) []string {
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_EXTERNAL_DIFF=",
	)
}

// filterNames returns the driver names of NUL-separated filter.<name>.<key>
// configuration names.
func filterNames(names string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range strings.Split(names, "\x00") {
		n = strings.TrimSpace(n)
		rest, ok := strings.CutPrefix(n, "filter.")
		i := strings.LastIndexByte(rest, '.')
		if !ok || i <= 0 || seen[rest[:i]] {
			continue
		}
		seen[rest[:i]] = true
		out = append(out, rest[:i])
	}
	return out
}

package bisect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// gitTimeout bounds each of bisect's git commands (a worktree of a large
// repository takes a while to check out).
const gitTimeout = 10 * time.Minute

// git runs git in the source repository and returns its trimmed stdout,
// bounded as every tool's (machine.RunBounded: stdout at most
// machine.MaxToolOutput, a failure quoting one short line of stderr). The
// repository may be a stranger's, whose configuration names commands to
// run: nothing it names runs (engine.GitOptions, engine.GitEnv: no hook,
// fsmonitor, content filter any configuration git reads defines, pager,
// transport or signature program; submodules not checked out), and the
// command has a deadline.
func git(ctx context.Context, repo string, args ...string) (string, error) {
	listing, err := gitRun(ctx, repo, engine.GitListEnv(os.Environ()), engine.GitListFilters...)
	if err != nil {
		return "", engine.GitListError(err)
	}
	env, err := engine.GitEnv(os.Environ(), listing)
	if err != nil {
		return "", err
	}
	return gitRun(ctx, repo, env, args...)
}

// gitRun runs one git command with env, in its own process group, killed
// whole at its deadline.
func gitRun(ctx context.Context, repo string, env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	argv := append(append(engine.GitOptions(), "-C", repo), args...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	out, errb, err := machine.RunBounded(cmd)
	if err != nil {
		if errors.Is(err, machine.ErrToolOutputTooLarge) {
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		if ctx.Err() == context.DeadlineExceeded {
			return "", fmt.Errorf("git %s: no answer within %s", strings.Join(args, " "), gitTimeout)
		}
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, quoteLine(string(errb)))
	}
	return strings.TrimSpace(string(out)), nil
}

// quoteLine is a tool's complaint for an error: its first line, at most
// 256 bytes.
func quoteLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(l) > 256 {
		l = l[:256] + "…"
	}
	return strings.TrimSpace(l)
}

// resolve names a revision by its full commit id.
func resolve(ctx context.Context, repo, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q: a revision does not start with -", rev)
	}
	return git(ctx, repo, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
}

// rangeCommits lists the commits after good up to and including bad,
// oldest first, along bad's first-parent line. good must be on that line:
// an ancestor of bad that joined it by a merge (a release branch merged
// back) is refused, since the first-parent commits before the merge do
// not descend from it and the search would take them for good unmeasured.
func rangeCommits(ctx context.Context, repo, good, bad string) ([]schema.BisectCommit, error) {
	if _, err := git(ctx, repo, "merge-base", "--is-ancestor", good, bad); err != nil {
		return nil, fmt.Errorf("the good revision %.12s is not an ancestor of the bad one %.12s (git merge-base GOOD BAD names the commit they share, a good revision to give)", good, bad)
	}
	out, err := git(ctx, repo, "log", "--no-show-signature", "--reverse", "--first-parent", "--format=%H%x00%P%x00%s", good+".."+bad)
	if err != nil {
		return nil, err
	}
	var cs []schema.BisectCommit
	for _, l := range strings.Split(out, "\n") {
		if l == "" {
			continue
		}
		sha, rest, _ := strings.Cut(l, "\x00")
		parents, subj, _ := strings.Cut(rest, "\x00")
		if len(cs) == 0 {
			if first, _, _ := strings.Cut(parents, " "); first != good {
				return nil, notOnFirstParentLine(good, bad, first)
			}
		}
		cs = append(cs, schema.BisectCommit{SHA: sha, Subject: subj})
	}
	if len(cs) == 0 || cs[len(cs)-1].SHA != bad {
		return nil, fmt.Errorf("no commits from %.12s to %.12s along the first-parent line", good, bad)
	}
	return cs, nil
}

// notOnFirstParentLine is the refusal of a good revision that is not on
// bad's first-parent line, naming the last commit of that line that is
// in good's history (fork, none when the line has no such commit).
func notOnFirstParentLine(good, bad, fork string) error {
	msg := fmt.Sprintf("the good revision %.12s is not on the first-parent line of the bad one %.12s: ", good, bad) +
		"it joined that line by a merge (a release branch merged back), and the commits of the line before the merge do not descend from it"
	if fork == "" {
		return errors.New(msg)
	}
	return fmt.Errorf("%s; give as the good revision the commit of the line it branched off from, %.12s (git merge-base GOOD FIRST-PARENT-OF-THE-MERGE names it), once it is known not to have the regression", msg, fork)
}

// addWorktree checks the commit out, detached, into its own worktree at
// dir; the user's checkout is not touched. A worktree already there at
// that commit (a resumed bisect) is kept, its tracked files checked out
// again.
//
// The worktree is added without a checkout, and its files are checked
// out by a git run in the worktree itself: a configuration can include
// another only for a worktree's git folder (includeIf "gitdir:…"), which
// a git run in the repository does not read, so the filters it defines
// would be neither listed nor emptied there, yet run by the checkout
// that worktree add starts in the new worktree.
//
// The checkout runs in dir only where dir is a worktree's own top folder:
// a plain folder left inside the user's checkout would have git answer for
// the checkout around it, whose uncommitted work a reset would throw away.
func addWorktree(ctx context.Context, repo, dir, sha string) error {
	if !registeredWorktree(ctx, repo, dir, sha) {
		if _, err := git(ctx, repo, "worktree", "add", "--force", "--no-checkout", "--detach", dir, sha); err != nil {
			return err
		}
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	if !sameFolder(top, dir) {
		return fmt.Errorf("%s is not a worktree of its own (git answers for %s there): not checked out", dir, top)
	}
	_, err = git(ctx, dir, "reset", "--hard", "--quiet", sha)
	return err
}

// sameFolder reports whether two paths name one folder.
func sameFolder(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// removeWorktree removes a worktree and its administrative files.
func removeWorktree(ctx context.Context, repo, dir string) error {
	_, err := git(ctx, repo, "worktree", "remove", "--force", dir)
	return err
}

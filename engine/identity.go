package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// RealBinaryMarker is the comment line by which a wrapper script names the
// binary it runs.
const RealBinaryMarker = "# decodebench-real-binary: "

// Identify is the engine's identity, as a record's engine section stores
// it: what was run, byte for byte. It resolves command in env, the
// environment the engine runs with (Resolve: the PATH it is found on, the
// loader variables that choose its libraries), hashes it (and the binary a
// wrapper script names), hashes the shared libraries it loads, asks it for
// --version, and reads the git state of sourceDir when one is given. The model files an engine loads are hashed apart
// (ModelFiles). This is neither the machine's identity (machine.Identify:
// hardware and OS) nor output identity (package outputs).
func Identify(ctx context.Context, command string, env []string, sourceDir string) schema.EngineInfo {
	id, _, _ := IdentifyExecuted(ctx, command, env, sourceDir)
	return id
}

// UnidentifiedError is an engine that resolves but cannot be identified:
// what it executes cannot be hashed, or it cannot run at all (its
// --version could not start it, or its shell exited 126 or 127: a
// command it runs is missing or not executable, as in a wrapper copied
// away from the files it names relative to itself).
type UnidentifiedError struct {
	Path string
	Why  []string
}

func (e *UnidentifiedError) Error() string {
	return fmt.Sprintf("engine %s cannot be identified: %s", e.Path, strings.Join(e.Why, "; "))
}

// IdentifyExecuted is Identify with what it resolved: the files the
// identity hashed, which every later start of the engine must still
// execute (a campaign checks them at each run start); and, for an engine
// that resolves, an *UnidentifiedError when it cannot be identified (its
// problems are in the identity too).
func IdentifyExecuted(ctx context.Context, command string, env []string, sourceDir string) (schema.EngineInfo, Executed, error) {
	id := schema.EngineInfo{Command: command}
	x, err := Resolve(command, env)
	if err != nil {
		id.Problems = append(id.Problems, fmt.Sprintf("cannot resolve %q: %v", command, err))
		return id, x, nil
	}
	path := x.Path
	id.Path = path
	unid := &UnidentifiedError{Path: path}
	if id.SHA256, err = fileSHA256(path); err != nil {
		id.Problems = append(id.Problems, err.Error())
		unid.Why = append(unid.Why, err.Error())
	}
	if x.RealBinary != "" {
		id.RealBinary = x.RealBinary
		if id.RealSHA256, err = fileSHA256(x.RealBinary); err != nil {
			id.Problems = append(id.Problems, err.Error())
			unid.Why = append(unid.Why, fmt.Sprintf("the binary it runs, %s: %v", x.RealBinary, err))
		}
	}
	libs, problems := hashLibraries(x.Libraries)
	id.Libraries = libs
	id.Problems = append(append(id.Problems, x.Problems...), problems...)
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	res, err := probe{argv: []string{path, "--version"}, env: env, timeout: versionTimeout, combined: true}.run(ctx)
	id.Version = cutText(strings.TrimSpace(res.out), 2000)
	if err != nil {
		id.Problems = append(id.Problems, fmt.Sprintf("%s --version: %v", command, err))
		if why := cannotRun(path, res.out, err); why != "" {
			unid.Why = append(unid.Why, why)
		}
	}
	if res.cut > 0 {
		id.Problems = append(id.Problems, fmt.Sprintf("%s --version printed more than %s; the rest was not read", command, sizeText(MaxVersionBytes)))
	}
	if len(res.killed) > 0 {
		id.Problems = append(id.Problems, fmt.Sprintf("%s --version left processes running; killed: %s", command, leftoversText(res.killed)))
	}
	if sourceDir != "" {
		id.SourceDir = sourceDir
		if c, err := git(ctx, sourceDir, "rev-parse", "HEAD"); err == nil {
			id.SourceCommit = c
			// git stays out of submodules (their configuration, which
			// the overrides do not list, may name filters): a submodule
			// checked out at another commit than the one recorded is a
			// change, changes inside its work tree are not looked at.
			st, err := git(ctx, sourceDir, "status", "--porcelain", "--untracked-files=no", "--ignore-submodules=dirty")
			if err == nil {
				dirty := st != ""
				id.SourceDirty = &dirty
			}
			if m, err := git(ctx, sourceDir, "ls-files", "--full-name", "--", ":(top).gitmodules"); err == nil && m != "" {
				id.Problems = append(id.Problems, fmt.Sprintf("engine source %s has submodules: its dirty flag counts a submodule "+
					"checked out at another commit than the one recorded, not changes inside a submodule's files (git is kept out of them)", sourceDir))
			}
			id.BinaryOlderThanSource = binaryOlder(ctx, id, sourceDir)
		} else {
			id.Problems = append(id.Problems, fmt.Sprintf("engine source %s: %v", sourceDir, err))
		}
	}
	if len(unid.Why) > 0 {
		return id, x, unid
	}
	return id, x, nil
}

// cannotRun says why a version probe's failure means the engine cannot run
// at all: it could not be started (a file the kernel cannot execute, an
// interpreter that is missing), or its shell exited 126 (found, not
// executable) or 127 (not found); "" for any other failure (an engine
// without --version may exit 1 or 2 on it and run fine).
func cannotRun(path, out string, err error) string {
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if first != "" {
		first = fmt.Sprintf(" (it printed %q)", cutText(first, 300))
	}
	var ee *exec.ExitError
	var pe *fs.PathError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 127:
		return fmt.Sprintf("%s --version exited with status 127, a shell's \"command not found\": a command it runs is missing%s", path, first)
	case errors.As(err, &ee) && ee.ExitCode() == 126:
		return fmt.Sprintf("%s --version exited with status 126, a shell's \"cannot execute\": a command it runs is not executable%s", path, first)
	case errors.As(err, &pe):
		return fmt.Sprintf("%s cannot be started: %v", path, err)
	}
	return ""
}

// versionTimeout bounds a version probe, whatever the processes it starts
// do (probe.go).
const versionTimeout = 30 * time.Second

// cutText keeps the first n bytes of s, as valid UTF-8.
func cutText(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	// Valid UTF-8, as the record's JSON holds it: a version that printed
	// a byte that is not was written as U+FFFD and rendered otherwise, and
	// its own record failed check.
	return strings.ToValidUTF8(s, "\uFFFD")
}

// gitTimeout bounds each git command run on an engine source folder.
const gitTimeout = 20 * time.Second

// git runs git in a folder the scenario names, which may be a stranger's
// clone whose configuration names commands to run: with GitOptions and
// GitEnv (hooks, fsmonitor and every content filter git's configuration
// defines off: status would run clean filters; no system configuration,
// pager or prompt; the index never written), and a deadline.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	listing, err := gitProbe(ctx, dir, GitListEnv(os.Environ()), GitListFilters)
	if err != nil {
		return "", GitListError(err)
	}
	env, err := GitEnv(os.Environ(), listing)
	if err != nil {
		return "", err
	}
	return gitProbe(ctx, dir, env, args)
}

// gitProbe runs one git command in dir with env.
func gitProbe(ctx context.Context, dir string, env, args []string) (string, error) {
	argv := append(append(append([]string{"git"}, GitOptions()...), "-C", dir), args...)
	res, err := probe{argv: argv, env: env, timeout: gitTimeout}.run(ctx)
	if err != nil {
		if errors.Is(err, errProbeTimeout) || ctx.Err() == context.DeadlineExceeded {
			return "", fmt.Errorf("git %s: no answer within %s", strings.Join(args, " "), gitTimeout)
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(res.out), nil
}

// FileSHA256 hashes a file as the engine identity does.
func FileSHA256(path string) (string, error) { return fileSHA256(path) }

// The file is opened through the guarded reader, links followed: a path
// a wrapper script names may be a FIFO or a device, refused at once.
func fileSHA256(path string) (string, error) {
	f, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return "", fmt.Errorf("hash engine binary: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash engine binary: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// VersionOf runs a version command (a Python engine's
// `python3 -c 'import mlx_lm; print(mlx_lm.__version__)'`) with a timeout
// and returns what it printed, on one line.
func VersionOf(ctx context.Context, argv []string, env map[string]string) (string, error) {
	if len(argv) == 0 {
		return "", nil
	}
	env2 := Inherited()
	for k, v := range env {
		env2 = append(env2, k+"="+v)
	}
	res, err := probe{argv: argv, env: env2, timeout: versionTimeout, combined: true}.run(ctx)
	v := cutText(strings.Join(strings.Fields(res.out), " "), 500)
	return v, err
}

// binaryOlder reports whether the binary (the wrapped one, for a wrapper
// script) was last modified before the source's last commit: then it
// cannot have been built from that commit.
func binaryOlder(ctx context.Context, id schema.EngineInfo, sourceDir string) bool {
	bin := id.Path
	if id.RealBinary != "" {
		bin = id.RealBinary
	}
	st, err := os.Stat(bin)
	if err != nil {
		return false
	}
	ct, err := git(ctx, sourceDir, "log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return false
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ct), 10, 64)
	if err != nil {
		return false
	}
	return st.ModTime().Before(time.Unix(sec, 0))
}

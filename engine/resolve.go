package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Executed is what starting an engine command runs, found without running
// it: the file the command names on the environment's PATH, absolute with
// its links followed (the file that is executed and hashed), the binary a
// wrapper script names, and the engine's own shared libraries the loader
// would map with that environment (libraries.go). Two environments that
// differ in PATH, LD_LIBRARY_PATH, LD_PRELOAD, DYLD_* or
// GGML_BACKEND_PATH may execute different files from one command.
type Executed struct {
	// Path is the file executed: what Start and RunCommand run when given
	// it as Executable, whatever PATH or a link says by then.
	Path string
	// RealBinary is the binary a wrapper script names by its marker, or
	// a shell script runs by its exec line (script.go), else empty.
	RealBinary string
	// Libraries are the engine's shared libraries, each a path with its
	// links followed, sorted.
	Libraries []string
	// Problems are what could not be found (a library the loader would
	// not find, a file that is not a regular one).
	Problems []string
}

// Resolve finds what command executes in env (a process environment, as
// os.Environ returns it; a later entry of a name wins, as it does when
// the process starts). A command without a slash is looked up on env's
// PATH, as a shell would and as the engine's own start does.
func Resolve(command string, env []string) (Executed, error) {
	path, err := lookPath(command, env)
	if err != nil {
		return Executed{}, err
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	x := Executed{Path: path}
	binary := path
	real, libDirs := wrapperMarkers(path)
	var problem string
	if real == "" {
		real, problem = scriptTarget(path, env)
		// A script that runs the install's wrapper runs the binary
		// that wrapper names.
		if r, dirs := wrapperMarkers(real); r != "" {
			real, libDirs = r, dirs
		}
	}
	if real != "" {
		x.RealBinary, binary = real, real
	}
	x.Libraries, x.Problems = libraryPaths(binary, libDirs, env)
	if problem != "" {
		x.Problems = append([]string{problem}, x.Problems...)
	}
	return x, nil
}

// Same reports whether two resolutions execute the same files: the same
// path, wrapped binary and libraries.
func (x Executed) Same(y Executed) bool {
	return x.Path == y.Path && x.RealBinary == y.RealBinary && strings.Join(x.Libraries, "\x00") == strings.Join(y.Libraries, "\x00")
}

// runnerOnly are the variables of a CI runner that no engine, version
// command or build decodebench starts is given: GitHub's file commands
// (a line appended to $GITHUB_ENV sets a variable of every later step,
// NODE_OPTIONS or LD_PRELOAD included; $GITHUB_OUTPUT and
// $GITHUB_STEP_SUMMARY feed what a workflow posts) and its runtime
// tokens. A pull request's build run as an arm would otherwise write them.
var runnerOnly = map[string]bool{
	"GITHUB_ENV": true, "GITHUB_OUTPUT": true, "GITHUB_PATH": true, "GITHUB_STATE": true, "GITHUB_STEP_SUMMARY": true,
	"ACTIONS_RUNTIME_TOKEN": true, "ACTIONS_RUNTIME_URL": true, "ACTIONS_CACHE_URL": true, "ACTIONS_RESULTS_URL": true,
	"ACTIONS_ID_TOKEN_REQUEST_TOKEN": true, "ACTIONS_ID_TOKEN_REQUEST_URL": true,
}

// Inherited is decodebench's own environment as a process it starts
// inherits it: without the runner's file commands and tokens (runnerOnly).
func Inherited() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return runnerOnly[k]
	})
}

// Environ is the environment an engine runs with: decodebench's own
// (Inherited) with extra over it. Start, RunCommand and the identity of an arm's engine
// all use it, so that what is identified is what runs.
func Environ(extra map[string]string) []string {
	env := Inherited()
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// Getenv is the value of name in env, the last entry winning as it does
// for the started process.
func Getenv(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// lookPath is exec.LookPath on env's PATH (decodebench's own when env
// sets none). A name found through a relative PATH entry is refused, as
// exec.LookPath refuses it (exec.ErrDot).
func lookPath(command string, env []string) (string, error) {
	if command == "" {
		return "", errors.New("empty command")
	}
	if strings.Contains(command, "/") {
		if err := executable(command); err != nil {
			return "", &exec.Error{Name: command, Err: err}
		}
		return command, nil
	}
	pathVar, ok := Getenv(env, "PATH")
	if !ok {
		pathVar = os.Getenv("PATH")
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, command)
		if executable(p) != nil {
			continue
		}
		if !filepath.IsAbs(p) {
			return "", &exec.Error{Name: command, Err: fmt.Errorf("%w (found as %s)", exec.ErrDot, p)}
		}
		return p, nil
	}
	return "", &exec.Error{Name: command, Err: exec.ErrNotFound}
}

// executable is exec.LookPath's test of a candidate: not a folder, some
// execute bit set.
func executable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if m := fi.Mode(); m.IsDir() || m&0o111 == 0 {
		return fs.ErrPermission
	}
	return nil
}

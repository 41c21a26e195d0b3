package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
)

// A user's wrapper script (a shell script that sets a variable and execs
// llama-server) is identified by its own hash: that says nothing about the
// binary it runs, which a rebuild changes under an unchanged script. Like
// the install's wrapper, whose markers name its binary, a script is read
// for the binary it runs: the program of its exec line, written out (a
// path, or a name found on the engine's PATH). Where that cannot be told
// without running it (a program named through a variable, a launcher such
// as nice, several exec lines), identifying it says so, and how to name it:
// a RealBinaryMarker line.

// shells are the interpreters whose scripts are read for the binary they
// run.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"}

// launchers run the program named after them: a script that execs one
// names the launcher, not the engine.
var launchers = []string{"nice", "taskset", "numactl", "chrt", "ionice", "stdbuf", "time", "sudo", "nohup", "setsid", "timeout"}

// maxScriptBytes bounds how much of a script is read.
const maxScriptBytes = 64 << 10

// scriptTarget returns the binary a shell script without markers runs,
// resolved in env, or why it cannot name one; both empty for a file that
// is not a shell script.
func scriptTarget(path string, env []string) (target, problem string) {
	f, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxScriptBytes))
	if !bytes.HasPrefix(b, []byte("#!")) || !isShell(b) {
		return "", ""
	}
	cannot := func(why string) (string, string) {
		return "", fmt.Sprintf("the shell script %s is identified by its own hash only: the binary it runs cannot be named without running it (%s); "+
			"a line %sPATH in it names that binary, which is then hashed too", path, why, RealBinaryMarker)
	}
	words, why := scriptProgram(b)
	if words == nil {
		return cannot(why)
	}
	prog := words[0]
	switch {
	case strings.ContainsAny(prog, "$`"):
		return cannot(fmt.Sprintf("it runs %s, named through a variable or a command's output", prog))
	case slices.Contains(launchers, filepath.Base(prog)):
		return cannot(fmt.Sprintf("it runs its program through %s", prog))
	case slices.Contains(shells, filepath.Base(prog)):
		return cannot(fmt.Sprintf("it runs another shell, %s", prog))
	}
	found, err := lookPath(prog, env)
	if err != nil {
		return "", fmt.Sprintf("the shell script %s runs %s, which does not resolve: %v", path, prog, err)
	}
	if abs, err := filepath.Abs(found); err == nil {
		found = abs
	}
	if real, err := filepath.EvalSymlinks(found); err == nil {
		found = real
	}
	return found, ""
}

// isShell reports whether a script's #! line names a shell, directly or
// through env.
func isShell(b []byte) bool {
	line, _, _ := bytes.Cut(b[2:], []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) > 0 && filepath.Base(f[0]) == "env" {
		f = slices.DeleteFunc(f[1:], func(s string) bool { return strings.HasPrefix(s, "-") })
	}
	return len(f) > 0 && slices.Contains(shells, filepath.Base(f[0]))
}

// scriptProgram is the command line a script ends in: its exec line (all
// of them naming one program), else its last command when that names a
// program by path; nil and why there is none otherwise. Options of exec,
// variable assignments and env with its own are skipped.
func scriptProgram(b []byte) ([]string, string) {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxScriptBytes)
	cont := ""
	for sc.Scan() {
		l := cont + sc.Text()
		if strings.HasSuffix(l, "\\") {
			cont = strings.TrimSuffix(l, "\\")
			continue
		}
		cont = ""
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	var execs [][]string
	for _, l := range lines {
		if w := shellWords(l); len(w) > 0 && w[0] == "exec" {
			if w = program(w[1:]); len(w) > 0 {
				execs = append(execs, w)
			}
		}
	}
	switch {
	case len(execs) > 1 && slices.ContainsFunc(execs, func(w []string) bool { return w[0] != execs[0][0] }):
		return nil, fmt.Sprintf("its exec lines run %d different programs", len(execs))
	case len(execs) > 0:
		return execs[0], ""
	case len(lines) == 0:
		return nil, "it runs nothing"
	}
	w := program(shellWords(lines[len(lines)-1]))
	if len(w) == 0 || !strings.Contains(w[0], "/") {
		return nil, "it has no exec line, and its last command names no program by path"
	}
	return w, ""
}

// program skips what precedes a command's program: exec's options,
// variable assignments, and env with its options and assignments.
func program(w []string) []string {
	for len(w) > 0 {
		switch {
		case w[0] == "-a" && len(w) > 1:
			w = w[2:]
		case w[0] == "--" || w[0] == "env" || strings.HasPrefix(w[0], "-") && !strings.Contains(w[0], "/"):
			w = w[1:]
		case assignment(w[0]):
			w = w[1:]
		default:
			return w
		}
	}
	return nil
}

// assignment reports whether a word is NAME=VALUE.
func assignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// shellWords splits a line into words as a shell would before expanding
// anything: quotes removed, a backslash keeping the next character; a
// $ or ` left in a word (outside single quotes) says it would expand.
func shellWords(l string) []string {
	var words []string
	var cur strings.Builder
	in := false // a word is under way
	var quote rune
	rs := []rune(l)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(rs):
				i++
				cur.WriteRune(rs[i])
			default:
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case r == ';' || r == '&' || r == '|':
			if in {
				words = append(words, cur.String())
			}
			return words // the first command of the line
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

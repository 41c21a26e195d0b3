//go:build unix

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gateShell is the shell that holds a recorded command (startRecorded).
const gateShell = "/bin/sh"

// startRecorded is tr.start for a command that a record (a pid file) must
// name before it runs anything: a decodebench killed with SIGKILL between
// the start and the record (a loaded machine schedules the command's
// first instructions first) would leave a tree no record names, and no
// resume would reap it. The command starts held by a shell gate that
// waits for a line on a pipe; record(pid) runs, then the gate is opened
// and the shell execs the command in place: the same pid, process group,
// session and start time, which the record names. A gate whose parent
// died before it opened (its pipe reads EOF) exits 125 and runs nothing.
// What the gate execs gets the shell's environment (PWD set, a variable
// whose name a shell cannot hold dropped) and an executable the shell
// cannot exec runs as a shell script or fails with the shell's exit
// status, not as a start error: as a build's "sh -c" would have it
// anyway. The engines' start (Server) is not gated for that reason.
// record is given the pid of the process that runs; where no gate can be
// set (the command could not be resolved, or too many extra files for
// the shell's one-digit descriptors), the command starts plainly and
// record follows its start.
func (t *tree) startRecorded(cmd *exec.Cmd, record func(pid int)) (*exec.Cmd, error) {
	fd := 3 + len(cmd.ExtraFiles)
	if cmd.Err != nil || cmd.Path == "" || fd > 9 || cmd.Process != nil {
		started, err := t.start(cmd)
		if err == nil {
			record(started.Process.Pid)
		}
		return started, err
	}
	gr, gw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	path := cmd.Path
	if !strings.Contains(path, "/") {
		path = "./" + path // exec.Cmd's Path is never looked up in PATH
	}
	script := fmt.Sprintf(`read -r _ <&%d || exit 125; exec %d<&-; exec "$@"`, fd, fd)
	args := append([]string{filepath.Base(gateShell), "-c", script, "sh", path}, cmd.Args[1:]...)
	extra := append(append([]*os.File(nil), cmd.ExtraFiles...), gr)
	gated := &exec.Cmd{Path: gateShell, Args: args, Env: cmd.Env, Dir: cmd.Dir, Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
		ExtraFiles: extra, SysProcAttr: cmd.SysProcAttr, WaitDelay: cmd.WaitDelay}
	started, err := t.start(gated)
	gr.Close()
	if err != nil {
		gw.Close()
		return nil, err
	}
	record(started.Process.Pid)
	_, _ = gw.Write([]byte("\n"))
	gw.Close()
	return started, nil
}

// execTarget is the executable cmd will run once its gate opens, as
// /proc names it (links resolved): what its record names, since the gate
// runs the shell until then. "" when it cannot be resolved. (A script
// runs its interpreter: its record names the script, and a live leader
// is then left alone, as the record of a wrapper script's engine is
// until it is written again.)
func execTarget(cmd *exec.Cmd) string {
	p := cmd.Path
	if !filepath.IsAbs(p) {
		dir := cmd.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		p = filepath.Join(dir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return real
}

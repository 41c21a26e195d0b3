package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Identity says exactly which engine binary ran, so that a record can be
// reproduced and two records compared.
type Identity struct {
	Command string `json:"command"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
	Version string `json:"version"`
	// RealBinary is the program a wrapper script runs (the wrappers that
	// scripts/install-llama-server.sh writes name it), with its hash.
	RealBinary   string `json:"real_binary,omitempty"`
	RealSHA256   string `json:"real_sha256,omitempty"`
	SourceDir    string `json:"source_dir,omitempty"`
	SourceCommit string `json:"source_commit,omitempty"`
	SourceDirty  *bool  `json:"source_dirty,omitempty"`
	// Models are the files the command lines name (see ModelFiles).
	Models []ModelFile `json:"models,omitempty"`
	// Problems lists what could not be determined.
	Problems []string `json:"problems,omitempty"`
}

// RealBinaryMarker is the comment line by which a wrapper script names the
// binary it runs.
const RealBinaryMarker = "# decodebench-real-binary: "

// Identify resolves command on PATH, hashes it, asks it for --version, and
// reads the git state of sourceDir when one is given.
func Identify(ctx context.Context, command string, env []string, sourceDir string) Identity {
	id := Identity{Command: command}
	path, err := exec.LookPath(command)
	if err != nil {
		id.Problems = append(id.Problems, fmt.Sprintf("cannot resolve %q: %v", command, err))
		return id
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	id.Path = path
	if id.SHA256, err = fileSHA256(path); err != nil {
		id.Problems = append(id.Problems, err.Error())
	}
	if real := wrappedBinary(path); real != "" {
		id.RealBinary = real
		if id.RealSHA256, err = fileSHA256(real); err != nil {
			id.Problems = append(id.Problems, err.Error())
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = env
	cmd.SysProcAttr = procAttr()
	out, err := cmd.CombinedOutput()
	id.Version = strings.TrimSpace(string(out))
	if len(id.Version) > 2000 {
		id.Version = id.Version[:2000]
	}
	if err != nil {
		id.Problems = append(id.Problems, fmt.Sprintf("%s --version: %v", command, err))
	}
	if sourceDir != "" {
		id.SourceDir = sourceDir
		if c, err := git(ctx, sourceDir, "rev-parse", "HEAD"); err == nil {
			id.SourceCommit = c
			st, err := git(ctx, sourceDir, "status", "--porcelain", "--untracked-files=no")
			if err == nil {
				dirty := st != ""
				id.SourceDirty = &dirty
			}
		} else {
			id.Problems = append(id.Problems, fmt.Sprintf("engine source %s: %v", sourceDir, err))
		}
	}
	return id
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
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

// wrappedBinary returns the binary a small wrapper script names with
// RealBinaryMarker, or "".
func wrappedBinary(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 2)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte("#!")) {
		return ""
	}
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), RealBinaryMarker); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

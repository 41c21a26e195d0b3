//go:build unix

package machine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/internal/safefs"
)

// HolderInfo says who holds the host lock. The lock file holds it as JSON.
type HolderInfo struct {
	PID      int       `json:"pid"`
	Start    time.Time `json:"start"`
	Scenario string    `json:"scenario"`
}

// LockHeldError is returned when another campaign holds the host lock
// past the wait.
type LockHeldError struct {
	Path   string
	Holder HolderInfo // zero when the holder had not yet written itself
	Waited time.Duration
}

func (e *LockHeldError) Error() string {
	h := e.Holder
	if h.PID == 0 {
		return fmt.Sprintf("another campaign holds the host lock %s (holder not yet known); waited %v", e.Path, e.Waited.Round(time.Millisecond))
	}
	return fmt.Sprintf("another campaign holds the host lock %s: pid %d, scenario %q, since %s; waited %v",
		e.Path, h.PID, h.Scenario, h.Start.Format(time.RFC3339), e.Waited.Round(time.Millisecond))
}

// A HostLock is held by one campaign on a host at a time.
type HostLock struct {
	f    *os.File
	Path string
}

// LockPath is the host lock's file: $DECODEBENCH_LOCK when set, else
// decodebench.lock in LockDir. Every campaign of one user on one host
// meets there, whatever its shell sets; give DECODEBENCH_LOCK a shared
// path for runners under different users.
func LockPath() string {
	if p := os.Getenv("DECODEBENCH_LOCK"); p != "" {
		return p
	}
	return filepath.Join(LockDir(), "decodebench.lock")
}

// lockRoot is where LockDir lies: one path for every process of the
// host, not $XDG_RUNTIME_DIR or $TMPDIR, which differ between an ssh
// session, a cron job and a CI runner's service of one user (two
// campaigns of one user ran at once, each under its own lock, and
// neither saw the other's engines).
var lockRoot = "/tmp"

// LockDir is the folder of the host lock and of this user's engine
// registry when DECODEBENCH_LOCK is not set: decodebench-<uid> in /tmp
// (shared by every user, so it is checked before use by
// PrivateLockDir).
func LockDir() string {
	return filepath.Join(lockRoot, fmt.Sprintf("decodebench-%d", os.Geteuid()))
}

// PrivateLockDir creates LockDir when missing (mode 0700) and refuses it
// unless it is a folder of this user's that no one else may write to.
func PrivateLockDir() error {
	if err := safefs.PrivateDir(LockDir()); err != nil {
		return fmt.Errorf("machine: host lock folder: %w", err)
	}
	return nil
}

// openLock opens the lock file: a path the user named in
// DECODEBENCH_LOCK may be shared between users (any regular file, never
// through a link); the default one must be this user's own.
func openLock(path string) (*os.File, error) {
	if os.Getenv("DECODEBENCH_LOCK") != "" {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o666)
		if err != nil {
			return nil, err
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
		return f, nil
	}
	if err := PrivateLockDir(); err != nil {
		return nil, err
	}
	return safefs.OpenPrivate(path, os.O_RDWR|os.O_CREATE)
}

// lockPoll is how often a waiting AcquireHostLock tries again.
var lockPoll = 200 * time.Millisecond

// AcquireHostLock takes the host's advisory lock (flock on LockPath), so
// that two campaigns never measure on one host at once. When another
// process holds it, it tries again until wait has passed and then returns
// a *LockHeldError naming the holder's pid and scenario (wait 0: at once).
// The lock ends with Release or with the process: the kernel drops a dead
// holder's flock, so a crashed campaign never blocks the next.
func AcquireHostLock(ctx context.Context, wait time.Duration, info HolderInfo) (*HostLock, error) {
	return WaitHostLock(ctx, wait, info, nil)
}

// LockNotifyEvery is how often WaitHostLock says who holds the lock.
var LockNotifyEvery = 30 * time.Second

// WaitHostLock is AcquireHostLock that, while it waits, calls waiting
// with who holds the lock and how long it has waited: once when it starts
// to wait, then every LockNotifyEvery, so that a wait is never silent.
func WaitHostLock(ctx context.Context, wait time.Duration, info HolderInfo, waiting func(*LockHeldError)) (*HostLock, error) {
	path := LockPath()
	start := time.Now()
	var told time.Time
	for {
		f, err := openLock(path)
		if err != nil {
			return nil, fmt.Errorf("machine: host lock: %w", err)
		}
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			l := &HostLock{f: f, Path: path}
			if err := l.write(info); err != nil {
				l.Release()
				return nil, err
			}
			return l, nil
		}
		holder := readHolder(f)
		f.Close()
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("machine: host lock %s: %w", path, err)
		}
		waited := time.Since(start)
		if waited >= wait {
			return nil, &LockHeldError{Path: path, Holder: holder, Waited: waited}
		}
		if waiting != nil && (told.IsZero() || time.Since(told) >= LockNotifyEvery) {
			told = time.Now()
			waiting(&LockHeldError{Path: path, Holder: holder, Waited: waited})
		}
		if err := sleep(ctx, min(lockPoll, wait-waited)); err != nil {
			return nil, fmt.Errorf("machine: waiting for the host lock %s held by pid %d: %w", path, holder.PID, err)
		}
	}
}

func (l *HostLock) write(info HolderInfo) error {
	b, _ := json.Marshal(info)
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("machine: host lock %s: %w", l.Path, err)
	}
	if _, err := l.f.WriteAt(append(b, '\n'), 0); err != nil {
		return fmt.Errorf("machine: host lock %s: %w", l.Path, err)
	}
	return nil
}

func readHolder(f *os.File) HolderInfo {
	var h HolderInfo
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err == nil {
		_ = json.Unmarshal(b, &h) // a holder still writing reads as unknown
	}
	return h
}

// Release lets the next campaign in. The file stays: removing it would let
// a waiter lock a file that a newcomer no longer opens.
func (l *HostLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

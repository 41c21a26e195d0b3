// Package safefs is how decodebench opens the files a record, a data
// folder or another user may have planted: one guarded reader for every
// file a reviewer tool reads, and writes that a name or a link cannot
// redirect.
//
// Reading: a file is opened without following a link at its last
// component and without blocking (a FIFO opens at once), then must be a
// regular file (fstat, so a link to /dev/zero or a device is refused
// before a byte is read) of at most a stated size, and is read to at most
// that size whatever it grows to.
//
// Writing: under a Dir, a folder held open for as long as it is written
// to, every path component is opened relative to its parent without
// following links; a file is written create-exclusive into a temporary
// file in its target folder, synced and renamed over the target, which
// replaces a planted link rather than writing through it.
//
// The package imports nothing of decodebench's.
package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Size caps of what decodebench reads back (stated in docs/reference/bounds-and-security.md).
const (
	// MaxRecord bounds a record's Markdown: tens of kilobytes in practice.
	MaxRecord = 64 << 20
	// MaxRecordLines bounds a record's (or a bisect summary's) lines: a
	// sixteenth of MaxRecord's bytes. A record decodebench renders has
	// about 44 bytes a line (a run takes 9 to 17 lines: its row, its
	// counter readings, its marks in indented JSON), so one within
	// MaxRecord is within this too; the readers hold each line apart
	// (tens of bytes a line beyond its text), and 60 million empty lines
	// within MaxRecord cost check 2.4 GB.
	MaxRecordLines = MaxRecord / 16
	// MaxRuns bounds a data folder's runs.jsonl: about 10 KB a run, so
	// 100,000 runs fit.
	MaxRuns = 1 << 30
	// MaxDataFile bounds any other file of a data folder that is hashed
	// (engine logs, plots, the stored scenario).
	MaxDataFile = 1 << 30
)

// TooLargeError says a file is larger than its cap.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the most decodebench reads", e.Path, e.Limit)
}

// NotRegularError says a path is a link, a folder, a device, a FIFO or a
// socket where a regular file was expected.
type NotRegularError struct {
	Path string
	What string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.What)
}

// Open opens path for reading: never through a link at its last
// component, never blocking, and only a regular file of at most limit
// bytes. The file is returned in blocking mode.
func Open(path string, limit int64) (*os.File, error) {
	fd, err := openRetry(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	return adopt(fd, path, limit)
}

// ReadFile reads a whole file through Open.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// OpenNamed is Open for a file the user named (a scenario, a prompt
// file, an engine binary, a model): a link is followed, as the user
// meant it, but what it leads to must still be a regular file of at most
// limit bytes (a negative limit: any size), opened without blocking, so a
// FIFO or a device fails at once instead of hanging or never ending.
func OpenNamed(path string, limit int64) (*os.File, error) {
	fd, err := openRetry(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return adopt(fd, path, limit)
}

// ReadNamed reads a whole file through OpenNamed (limit must not be
// negative).
func ReadNamed(path string, limit int64) ([]byte, error) {
	f, err := OpenNamed(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// adopt checks an opened descriptor (regular, within limit), clears
// O_NONBLOCK and wraps it.
func adopt(fd int, path string, limit int64) (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &NotRegularError{Path: path, What: kind(uint32(st.Mode))}
	}
	if limit >= 0 && st.Size > limit {
		unix.Close(fd)
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

func readAll(r io.Reader, path string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return b, nil
}

// openError names a link refused by O_NOFOLLOW as one.
func openError(path string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) {
		return &NotRegularError{Path: path, What: "a symbolic link"}
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

func kind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "a folder"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	}
	return "a special file"
}

// openRetry is openat, retried on EINTR.
func openRetry(dirfd int, name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// TooManyLines is an error when a record's text src holds more than
// MaxRecordLines lines, before anything splits it into lines.
func TooManyLines(src []byte) error {
	if n := bytes.Count(src, []byte{'\n'}); n >= MaxRecordLines {
		return fmt.Errorf("more than %d lines (%d), where a record decodebench writes has about 44 bytes a line", MaxRecordLines, n+1)
	}
	return nil
}

package safefs

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Dir is a folder held open: every file under it is opened relative to
// the descriptor, component by component, never through a link, so that
// replacing the folder (or any folder under it) with a link after it was
// opened redirects nothing. os.Root is not used: it follows links that stay
// inside the root and has no no-follow for the last component.
type Dir struct {
	fd   int
	path string // for messages
	dev  uint64
	ino  uint64
}

// OpenDir opens a folder to hold. A link as its last component is
// refused; the folders above it are resolved as usual.
func OpenDir(p string) (*Dir, error) {
	fd, err := openRetry(unix.AT_FDCWD, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
			return nil, &NotRegularError{Path: p, What: "not a folder (or a link)"}
		}
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return newDir(fd, p)
}

func newDir(fd int, p string) (*Dir, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: p, Err: err}
	}
	return &Dir{fd: fd, path: p, dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// Path is the folder's path as opened.
func (d *Dir) Path() string { return d.path }

// Close lets the folder go.
func (d *Dir) Close() error {
	if d == nil || d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// Verify checks that the folder's path still names the folder held open
// (same device and inode, not a link): for what is written by path
// rather than through the Dir, such as an engine's log.
func (d *Dir) Verify() error {
	var st unix.Stat_t
	if err := unix.Lstat(d.path, &st); err != nil {
		return fmt.Errorf("folder %s: %w (replaced while in use?)", d.path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || uint64(st.Dev) != d.dev || uint64(st.Ino) != d.ino {
		return fmt.Errorf("folder %s was replaced while in use (now %s): nothing more is written there", d.path, kind(uint32(st.Mode)))
	}
	return nil
}

// split checks a slash-separated relative path and returns its parts: no
// absolute path, no "..", no empty or "." part.
func split(rel string) ([]string, error) {
	rel = filepath.ToSlash(rel)
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel {
		return nil, fmt.Errorf("%q is not a plain relative path", rel)
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil, fmt.Errorf("%q is not a plain relative path", rel)
		}
	}
	return parts, nil
}

// walk opens the folder holding rel's last part (creating missing folders
// when mkdir) and returns its descriptor (d.fd itself for a single part;
// the caller closes any other) and the last part.
func (d *Dir) walk(rel string, mkdir bool) (int, string, error) {
	parts, err := split(rel)
	if err != nil {
		return -1, "", err
	}
	fd := d.fd
	for i, p := range parts[:len(parts)-1] {
		if mkdir {
			if err := unix.Mkdirat(fd, p, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				d.closeSub(fd)
				return -1, "", &os.PathError{Op: "mkdir", Path: d.name(parts[:i+1]...), Err: err}
			}
		}
		nfd, err := openRetry(fd, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		d.closeSub(fd)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
				return -1, "", &NotRegularError{Path: d.name(parts[:i+1]...), What: "not a folder (or a link)"}
			}
			return -1, "", &os.PathError{Op: "open", Path: d.name(parts[:i+1]...), Err: err}
		}
		fd = nfd
	}
	return fd, parts[len(parts)-1], nil
}

func (d *Dir) closeSub(fd int) {
	if fd != d.fd {
		unix.Close(fd)
	}
}

func (d *Dir) name(parts ...string) string {
	return filepath.Join(append([]string{d.path}, parts...)...)
}

// Sub opens the folder rel under d (creating it and its parents when
// mkdir), never through a link.
func (d *Dir) Sub(rel string, mkdir bool) (*Dir, error) {
	fd, last, err := d.walk(rel, mkdir)
	if err != nil {
		return nil, err
	}
	defer d.closeSub(fd)
	if mkdir {
		if err := unix.Mkdirat(fd, last, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, &os.PathError{Op: "mkdir", Path: d.name(rel), Err: err}
		}
	}
	nfd, err := openRetry(fd, last, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil, &NotRegularError{Path: d.name(rel), What: "not a folder (or a link)"}
		}
		return nil, &os.PathError{Op: "open", Path: d.name(rel), Err: err}
	}
	return newDir(nfd, d.name(rel))
}

// Open opens rel under d for reading, as the package's Open does.
func (d *Dir) Open(rel string, limit int64) (*os.File, error) {
	fd, last, err := d.walk(rel, false)
	if err != nil {
		return nil, err
	}
	defer d.closeSub(fd)
	nfd, err := openRetry(fd, last, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, openError(d.name(rel), err)
	}
	return adopt(nfd, d.name(rel), limit)
}

// ReadFile reads rel under d, as the package's ReadFile does.
func (d *Dir) ReadFile(rel string, limit int64) ([]byte, error) {
	f, err := d.Open(rel, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, d.name(rel), limit)
}

// OpenFile opens rel under d for writing with flag (O_APPEND, O_TRUNC,
// O_CREATE, O_EXCL…), never through a link, and only a regular file.
func (d *Dir) OpenFile(rel string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, last, err := d.walk(rel, false)
	if err != nil {
		return nil, err
	}
	defer d.closeSub(fd)
	nfd, err := openRetry(fd, last, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, openError(d.name(rel), err)
	}
	return adopt(nfd, d.name(rel), -1)
}

// WriteFile writes b to rel under d atomically: into a temporary file
// created exclusively in rel's folder (".<name>.tmp-<random>"), synced,
// then renamed over rel. A link planted at rel is replaced, never written
// through; one planted at any temporary name is never used.
func (d *Dir) WriteFile(rel string, b []byte, perm fs.FileMode) error {
	return d.place(rel, b, perm, func(fd int, tmp, last string) error {
		return unix.Renameat(fd, tmp, fd, last)
	})
}

// CreateFile writes b to rel under d as WriteFile does, but only when
// nothing (no file, no link, no FIFO) is at rel yet: the temporary file is
// hard-linked to rel, which fails with an error matching fs.ErrExist when
// rel exists, then removed. rel never holds a partial file.
func (d *Dir) CreateFile(rel string, b []byte, perm fs.FileMode) error {
	return d.place(rel, b, perm, func(fd int, tmp, last string) error {
		err := unix.Linkat(fd, tmp, fd, last, 0)
		_ = unix.Unlinkat(fd, tmp, 0)
		return err
	})
}

// place writes b into a fresh temporary file in rel's folder and hands it
// to put (which moves it to rel's last part); the temporary file is
// removed if anything fails.
func (d *Dir) place(rel string, b []byte, perm fs.FileMode, put func(fd int, tmp, last string) error) error {
	fd, last, err := d.walk(rel, true)
	if err != nil {
		return err
	}
	defer d.closeSub(fd)
	var tmp string
	var tfd int
	for range 10 {
		var r [8]byte
		_, _ = rand.Read(r[:])
		tmp = "." + last + ".tmp-" + hex.EncodeToString(r[:])
		tfd, err = openRetry(fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	if err != nil {
		return &os.PathError{Op: "create", Path: d.name(rel), Err: err}
	}
	f := os.NewFile(uintptr(tfd), tmp)
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Chmod(perm.Perm()) // the umask may have narrowed it
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = put(fd, tmp, last)
	}
	if werr != nil {
		_ = unix.Unlinkat(fd, tmp, 0)
		return &os.PathError{Op: "write", Path: d.name(rel), Err: werr}
	}
	return nil
}

// WriteIfChanged writes b to rel unless rel is a regular file that already
// holds exactly b; it reports whether it wrote.
func (d *Dir) WriteIfChanged(rel string, b []byte, perm fs.FileMode) (bool, error) {
	if old, err := d.ReadFile(rel, int64(len(b))); err == nil && bytes.Equal(old, b) {
		return false, nil
	}
	return true, d.WriteFile(rel, b, perm)
}

// Remove removes the file rel under d (never following a link: a link is
// removed itself).
func (d *Dir) Remove(rel string) error {
	fd, last, err := d.walk(rel, false)
	if err != nil {
		return err
	}
	defer d.closeSub(fd)
	if err := unix.Unlinkat(fd, last, 0); err != nil {
		return &os.PathError{Op: "remove", Path: d.name(rel), Err: err}
	}
	return nil
}

// MkdirNew creates the folder name directly under d, and fails (with an
// error matching fs.ErrExist) when anything is there already, a link
// included: creating a folder is atomic, so it claims the name.
func (d *Dir) MkdirNew(name string) error {
	if parts, err := split(name); err != nil || len(parts) != 1 {
		return fmt.Errorf("%q is not a plain name", name)
	}
	if err := unix.Mkdirat(d.fd, name, 0o755); err != nil {
		return &os.PathError{Op: "mkdir", Path: d.name(name), Err: err}
	}
	return nil
}

// Mkdir creates the folder rel under d (and its parents).
func (d *Dir) Mkdir(rel string) error {
	s, err := d.Sub(rel, true)
	if err != nil {
		return err
	}
	return s.Close()
}

// WriteFile writes b to path atomically through a Dir held on its folder.
func WriteFile(p string, b []byte, perm fs.FileMode) error {
	d, err := OpenDir(filepath.Dir(p))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteFile(filepath.Base(p), b, perm)
}

// CreateFile writes b to path through a Dir held on its folder, as
// Dir.CreateFile does: only when nothing is at path yet.
func CreateFile(p string, b []byte, perm fs.FileMode) error {
	d, err := OpenDir(filepath.Dir(p))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.CreateFile(filepath.Base(p), b, perm)
}

// IsTemp reports whether a file name is one of WriteFile's temporary
// files, or another writer's (".record-*", "*.tmp"): never a result.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".tmp") || strings.Contains(name, ".tmp-")
}

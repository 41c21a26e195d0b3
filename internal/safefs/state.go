package safefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// StateDir makes p a folder of per-user state that vouches for something
// (a cache that says a record passed, or which file has which hash): it
// creates p with mode 0700, and any missing folder above it, and refuses it
// unless
//
//   - p is a private folder (PrivateDir): this user's own, a folder, no
//     link, writable by no one else;
//   - every folder above it, links resolved, is this user's or root's and
//     writable by no one else, or is sticky (as /tmp): whoever may write a
//     folder above p may move p away and put a folder of theirs in its
//     place;
//   - p is in no git work tree (no folder from p up holds a .git): a
//     repository's files are whoever committed them, a folder checked out
//     from one is this user's with mode 0755 and passes every test above,
//     and an entry planted in it would vouch for what it likes.
//
// A relative p is taken from the working folder, which is where a
// repository is most likely to be.
func StateDir(p string) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return fmt.Errorf("state folder %s: %w", abs, err)
	}
	real, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return fmt.Errorf("state folder %s: %w", abs, err)
	}
	for _, d := range []string{parent, real} {
		if top, ok := workTree(d); ok {
			return fmt.Errorf("%s is inside the git work tree %s: refused (a repository's files could vouch for anything); name a folder outside it", abs, top)
		}
	}
	for d := real; ; d = filepath.Dir(d) {
		var st unix.Stat_t
		if err := unix.Stat(d, &st); err != nil {
			return fmt.Errorf("state folder %s: %w", abs, err)
		}
		if err := trustedAbove(d, &st); err != nil {
			return fmt.Errorf("state folder %s: %w", abs, err)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if err := PrivateDir(abs); err != nil {
		return err
	}
	if _, ok := workTree(abs); ok {
		return fmt.Errorf("%s is a git work tree: refused", abs)
	}
	return nil
}

// trustedAbove checks a folder above a state folder: this user's or
// root's, and writable by no one else unless sticky.
func trustedAbove(d string, st *unix.Stat_t) error {
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFDIR {
		return fmt.Errorf("%s is %s, not a folder", d, kind(uint32(st.Mode)))
	}
	if uid := os.Geteuid(); int(st.Uid) != uid && st.Uid != 0 {
		return fmt.Errorf("%s is owned by uid %d, neither this user (uid %d) nor root: refused", d, st.Uid, uid)
	}
	if st.Mode&0o022 != 0 && st.Mode&unix.S_ISVTX == 0 {
		return fmt.Errorf("%s is writable by others (mode %04o) and not sticky: refused", d, st.Mode&0o7777)
	}
	return nil
}

// workTree finds the git work tree d is in: the nearest folder from d up
// that holds a .git (a folder, or the file of a linked work tree).
func workTree(d string) (string, bool) {
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil || !errors.Is(err, os.ErrNotExist) {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

// UserStateDir is the folder elem under the user's cache folder
// (os.UserCacheDir), made a state folder (StateDir); an error says why
// there is none: no user cache folder (neither $XDG_CACHE_HOME nor $HOME
// set), a relative one, or one StateDir refuses. There is never a
// fallback into the working folder.
func UserStateDir(elem ...string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache folder: %w", err)
	}
	if !filepath.IsAbs(base) {
		return "", fmt.Errorf("the user cache folder %q is relative ($HOME is); refused", base)
	}
	dir := filepath.Join(append([]string{base}, elem...)...)
	if err := StateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

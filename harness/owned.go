package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
)

// A data folder's campaign.json names what a resume runs: the scenario
// (its path, or a shipped one with overrides), the variables' values and
// the folder it runs in. A folder this user's decodebench wrote is its
// own campaign; one copied, downloaded or crafted is someone else's, and
// `run --resume` shows what it would run and asks first (Owned). Each
// state written is noted in this user's state folder (the user's cache
// folder, decodebench/campaigns, owner-only): the sha256 of the data
// folder's path names the entry, which holds the sha256 of the state.

// ownedEntry is the entry of the data folder dataDir, or "" when this
// user has no state folder (then no folder is owned).
func ownedEntry(dataDir string) string {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return ""
	}
	// One folder by whichever path it is reached (a link to it, /tmp
	// against /private/tmp on macOS).
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	dir, err := safefs.UserStateDir("decodebench", "campaigns")
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:16]))
}

// noteOwned notes that this user wrote state into dataDir. A folder
// whose note cannot be written is asked about on resume, as is every
// folder without a state folder.
func noteOwned(dataDir string, state []byte) {
	if e := ownedEntry(dataDir); e != "" {
		pruneOnce.Do(func() { pruneOwned(filepath.Dir(e), time.Now().Add(-ownedKeep)) })
		sum := sha256.Sum256(state)
		_ = safefs.WriteFile(e, []byte(hex.EncodeToString(sum[:])+"\n"), 0o600)
	}
}

// ownedKeep is how long a note outlives its campaign's last state: a
// campaign interrupted longer ago than that is asked about on resume, as
// a received one is. Every state written renews its note.
const ownedKeep = 90 * 24 * time.Hour

var pruneOnce sync.Once

// pruneOwned removes the notes in dir last written before cutoff, so the
// state folder holds the campaigns of the last ownedKeep rather than
// every campaign ever run. Only names a note can have are touched.
func pruneOwned(dir string, cutoff time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range entries {
		if len(d.Name()) != 32 || !d.Type().IsRegular() {
			continue
		}
		if _, err := hex.DecodeString(d.Name()); err != nil {
			continue
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(dir, d.Name()))
		}
	}
}

// Owned reports whether the campaign.json in dataDir is the one this
// user's decodebench last wrote there: the campaign this user started on
// this machine, unchanged since.
func Owned(dataDir string) bool {
	return OwnedState(dataDir, stateFile, maxStateBytes)
}

// NoteOwnedState notes that this user's decodebench wrote state as the
// resume state of dataDir (a bisect's bisect.json: OwnedState).
func NoteOwnedState(dataDir string, state []byte) { noteOwned(dataDir, state) }

// OwnedState reports whether the file name in dataDir (read to at most
// limit bytes) is the state this user's decodebench last noted for that
// folder (noteOwned, NoteOwnedState), unchanged since.
func OwnedState(dataDir, name string, limit int64) bool {
	b, err := safefs.ReadFile(filepath.Join(dataDir, name), limit)
	return err == nil && OwnedBytes(dataDir, b)
}

// OwnedBytes reports whether b is the state this user's decodebench last
// noted for dataDir.
func OwnedBytes(dataDir string, b []byte) bool {
	e := ownedEntry(dataDir)
	if e == "" {
		return false
	}
	want, err := safefs.ReadFile(e, 128)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(b)
	return bytes.Equal(bytes.TrimSpace(want), []byte(hex.EncodeToString(sum[:])))
}

// moveOwned notes the folder now as this user's campaign, as the entry
// from noted the folder it was moved from (a failed try's folder moved to
// scratch/): it is the same campaign.
func moveOwned(from, now string) {
	to := ownedEntry(now)
	if from == "" || to == "" {
		return
	}
	if b, err := safefs.ReadFile(from, 128); err == nil {
		_ = safefs.WriteFile(to, b, 0o600)
	}
}

package review

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"

	"github.com/decodebench/decodebench/internal/safefs"
)

// identityMemo is what one Check, CheckAll or Index found of the files it
// read, kept by their identity (safefs.ID: device, inode, size,
// modification and change times), so that a file reached again, through
// another campaign, summary, name, hard link or linked folder, is not
// read and checked again: the work stays linear in the files given,
// however they link to each other.
type identityMemo struct {
	mu sync.Mutex
	// records are the records bisect summaries link, by their file and
	// the folder they are in (their data folder is found from there).
	records map[linkKey]*linkedRecord
	// sums are the sha256 of the files summaries name.
	sums map[safefs.ID]string
}

func newIdentityMemo() *identityMemo {
	return &identityMemo{records: map[linkKey]*linkedRecord{}, sums: map[safefs.ID]string{}}
}

type linkKey struct{ folder, file safefs.ID }

// sha256Of is the sha256 (hex) of the file rel under d, read through the
// guarded reader (at most limit bytes) a piece at a time, or the one
// found before for the same file.
func (l *identityMemo) sha256Of(d *safefs.Dir, rel string, limit int64) (string, error) {
	f, err := d.Open(rel, limit)
	if err != nil {
		return "", err
	}
	defer f.Close()
	id, err := safefs.IdentityOf(f)
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	sum, ok := l.sums[id]
	l.mu.Unlock()
	if ok {
		return sum, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, limit+1)); err != nil {
		return "", err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	l.mu.Lock()
	l.sums[id] = sum
	l.mu.Unlock()
	return sum, nil
}

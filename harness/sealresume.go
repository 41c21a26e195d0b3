package harness

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
)

// sealForResume seals what a resume goes on from. Where the campaign's
// record is written (an interrupted or failed campaign's), the data folder
// must hold every file the record names with the sha256 it names, and
// those are sealed: a file changed since (an engine's line added to a
// log, a run appended to the journal: the record that failed its seals
// names them as decodebench left them) refuses the resume, which would
// otherwise vouch for it. Files the record does not name are not sealed
// (a slot's log the resume writes again is sealed as its run ends; any
// other is named when the record is written again).
//
// Where a later session started after the record (the state lists more
// resumes than the record) and was killed before it wrote one, its runs
// follow the record's in the journal, its logs are named nowhere and a
// slot's log the record names may be written again: the journal must
// begin with the runs the record names, and the folder is sealed as it
// is. Without a record (decodebench was
// killed before it wrote one) the folder is sealed as it is: nothing else
// says what it held. Both trust what the folder says of itself, as a
// resume of a crash must.
func (c *campaign) sealForResume(st state) error {
	if _, err := os.Lstat(c.recPath); errors.Is(err, fs.ErrNotExist) {
		return c.sealAll()
	}
	rec, err := recorder.ParseFile(c.recPath)
	if err != nil {
		return fmt.Errorf("its record %s does not parse (%s): move the record aside to resume from the data folder as it is", termsafe.String(c.recPath), termsafe.String(err.Error()))
	}
	if len(st.Resumed) > len(rec.Method.Resumed) {
		for _, f := range rec.Files {
			if f.Path == recorder.RunsFile && !journalBegins(c.data, f.SHA256) {
				return fmt.Errorf("the journal does not begin with the runs its record %s names: a resume would vouch for runs another process, the engine among them, wrote", termsafe.String(c.recPath))
			}
		}
		return c.sealAll()
	}
	var changed []string
	for _, f := range rec.Files {
		if f.Path == stateFile || f.Path == enginePIDFile {
			continue
		}
		if now, err := hashIn(c.data, f.Path); err != nil || now != f.SHA256 {
			changed = append(changed, termsafe.String(f.Path))
			continue
		}
		c.sealed()[f.Path] = f.SHA256
	}
	if len(changed) > 0 {
		if len(changed) > 5 {
			changed = append(changed[:5], fmt.Sprintf("and %d more", len(changed)-5))
		}
		return fmt.Errorf("the data folder is not as its record %s names it (%s: changed or removed since the record was written; check names each): a resume would vouch for files another process, the engine among them, wrote", termsafe.String(c.recPath), strings.Join(changed, ", "))
	}
	return nil
}

// journalBegins reports whether the journal's runs, up to one of its line
// ends (or none), have the sha256 sum.
func journalBegins(d *safefs.Dir, sum string) bool {
	f, err := d.Open(recorder.RunsFile, safefs.MaxDataFile)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if hex.EncodeToString(h.Sum(nil)) == sum {
		return true
	}
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		h.Write(line)
		if err == nil && hex.EncodeToString(h.Sum(nil)) == sum {
			return true
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return false
		}
	}
}

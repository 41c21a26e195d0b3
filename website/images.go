package website

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/decodebench/decodebench/internal/safefs"
)

// maxImageBytes caps an image copied from a data folder.
const maxImageBytes = 16 << 20

var (
	sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
)

// copied is one image's copy into the site, made once however many
// records show it.
type copied struct {
	once sync.Once
	err  error
}

// image is where a record's image stands on the site: a PNG file of the
// record's data folder, named in the record with its sha256, read
// through the guarded reader (no link, a size cap), its bytes of that
// sha256 and a PNG's, copied under assets/img by that sha256. "" for any
// other image, which is not shown.
func (rw rewriter) image(dest string) (string, error) {
	if dest == "" || strings.ContainsAny(dest, ":?#\\") || strings.HasPrefix(dest, "/") {
		return "", nil
	}
	dd := path.Clean(rw.s.dataDir)
	rel, ok := strings.CutPrefix(path.Clean(dest), dd+"/")
	if !ok || dd == "." || strings.HasPrefix(dd, "..") || strings.HasPrefix(dd, "/") || path.Ext(rel) != ".png" {
		return "", nil
	}
	sum := ""
	for _, f := range rw.s.files {
		if f.Path == rel {
			sum = f.SHA256
		}
	}
	if !sha256Hex.MatchString(sum) {
		return "", nil
	}
	name := imageDir + "/" + sum + ".png"
	c, _ := rw.o.images.LoadOrStore(name, &copied{})
	cp := c.(*copied)
	cp.once.Do(func() { cp.err = rw.copyImage(dd, rel, sum, name) })
	if cp.err != nil {
		return "", cp.err
	}
	return "../" + name, nil
}

func (rw rewriter) copyImage(dataDir, rel, sum, name string) error {
	top, err := safefs.OpenDir(rw.dir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.Sub(dataDir, false)
	if err != nil {
		return err
	}
	defer d.Close()
	b, err := d.ReadFile(rel, maxImageBytes)
	if err != nil {
		return err
	}
	got := sha256.Sum256(b)
	if hex.EncodeToString(got[:]) != sum {
		return fmt.Errorf("%s/%s: sha256 %.12s, the record names %.12s", dataDir, rel, hex.EncodeToString(got[:]), sum)
	}
	if !bytes.HasPrefix(b, pngMagic) {
		return fmt.Errorf("%s/%s: not a PNG file", dataDir, rel)
	}
	return rw.o.write(name, b)
}

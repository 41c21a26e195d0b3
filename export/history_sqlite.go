package export

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver: no C toolchain needed

	"github.com/decodebench/decodebench/history"
)

// HistorySQLite writes the rows as the table HistoryTable, indexed by
// feature, hardware and date, into a new database beside path and renames
// it over path, so a reader never sees half an export.
func HistorySQLite(path string, rows []history.Row) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*.sqlite")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// The rollback journal is kept in memory: SQLite then creates no
	// side file by name ("<tmp>-journal") in the folder, where a link
	// planted at that name would be followed.
	db, err := sql.Open("sqlite", tmp.Name()+"?_pragma=journal_mode(memory)")
	if err != nil {
		return err
	}
	defer db.Close()
	var defs, marks []string
	for _, col := range HistoryColumns {
		defs = append(defs, col.Name+" "+col.SQLType)
		marks = append(marks, "?")
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("CREATE TABLE " + HistoryTable + " (" + strings.Join(defs, ", ") + ")"); err != nil {
		return err
	}
	ins, err := tx.Prepare("INSERT INTO " + HistoryTable + " VALUES (" + strings.Join(marks, ", ") + ")")
	if err != nil {
		return err
	}
	args := make([]any, len(HistoryColumns))
	for _, r := range rows {
		for i, col := range HistoryColumns {
			args[i] = col.Value(r)
		}
		if _, err := ins.Exec(args...); err != nil {
			return err
		}
	}
	ins.Close()
	if _, err := tx.Exec("CREATE INDEX " + HistoryTable + "_series ON " + HistoryTable + " (feature, hardware, date)"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

package review

import (
	"os"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// heldRuns reads a record's runs whole, texts and all, as recorder.Load
// does, within the process's runs budget as check reads them (runsBudget:
// runsShare), each distinct text kept once
// (texts): for what must read the runs' outputs outside check. release
// gives the share back once the runs are let go.
func heldRuns(path string) (runs []schema.Run, release func(), err error) {
	release = func() {}
	_, err = recorder.LoadWith(path, func(_ *schema.Record, f *os.File) (func(schema.Run) error, error) {
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		lines, err := lineCount(f)
		if err != nil {
			return nil, err
		}
		lines = min(lines+1, recorder.MaxRunCount)
		release = runsBudget.take(runsShare(st.Size(), lines))
		runs = make([]schema.Run, 0, lines)
		kept := texts{}
		keep := recorder.AppendRun(&runs, path+": "+recorder.RunsFile)
		return func(r schema.Run) error {
			kept.keepRun(&r)
			return keep(r)
		}, nil
	})
	if err != nil {
		release()
		return nil, func() {}, err
	}
	return runs, release, nil
}

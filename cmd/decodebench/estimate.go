package main

import (
	"context"
	"sync"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/review"
)

// newEstimator finds scenarios' costs in the records of dir, read as
// every command reads records. The hardware of this machine, which a
// scenario of hardware "auto" would record, is identified once, when the
// first such scenario needs it.
func newEstimator(ctx context.Context, dir string) estimate.Records {
	return estimate.Records{Dir: dir, List: review.LoadHistory, Load: checkedLoad(), Once: onceEach, Here: sync.OnceValue(func() string {
		id, _ := machine.Identify(ctx) // a partial identity still has a slug
		return id.Slug
	})}
}

// onceEach is recs with one record of each campaign (review.OnceEach): a
// record copied under other names counts once where a plan or an estimate
// goes by several records.
func onceEach(dir string, recs []history.Record) []history.Record {
	kept, _ := review.OnceEach(dir, recs)
	return kept
}

// Package estimate says roughly how long a campaign will take: from the
// costs of one engine start and one request, taken from the newest record
// of the same feature and hardware in a records folder (its noise anatomy,
// else its runs' times), or guessed when there is none. It is meant for
// telling minutes from days, not for scheduling.
//
// It computes typed values only (Costs and a duration); the sentences that
// say what an estimate went by are written by its callers. It knows a
// scenario through Shape, which package scenarios fills, so that the
// scenarios' own bound on a campaign's length uses the same guess.
package estimate

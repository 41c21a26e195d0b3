// Package planner says what a scenario's schedule will detect on this
// hardware, and what schedule detects the change a user asks about, from
// the machine's own history: the records of the scenario (else of its
// feature) on this hardware, re-analysed under the current rule, give a
// host model (Host: the noise of a run within its round, split into what
// a start and a request contribute, the stalls, what a start and a
// request cost); the rule's MDE model (analysis.Rule.PlannedMDE) turns a
// schedule on that host into the minimum detectable effect its record
// would state (Plan); and an asked effect into the rounds and measured
// requests a start that reach it, the time they take, or, when the budget
// does not allow it, what would (Ask).
//
// It computes typed values only; console prints them.
package planner

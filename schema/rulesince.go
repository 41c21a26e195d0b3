package schema

import (
	"strings"
	"time"
)

// RuleSince is when decodebench could first write a record under rule r:
// the author date of the first commit of its history whose RuleCurrent
// is r (a build writes records under its RuleCurrent only, and a resume
// under the resuming build's). It says false for the first rule (no date
// bounds it) and for a rule it does not know. check holds a record's
// rule to it (a record started before its rule existed names a rule its
// writer could not have written); a rule made current is added here with
// its commit.
func RuleSince(r Rule) (time.Time, bool) {
	for _, s := range ruleSince {
		if s.rule == r {
			return s.since, true
		}
	}
	return time.Time{}, false
}

// RuleCommit is the commit whose author date RuleSince gives, "" where it
// gives none.
func RuleCommit(r Rule) string {
	for _, s := range ruleSince {
		if s.rule == r {
			return s.commit
		}
	}
	return ""
}

// RuleOrder is the place of rule r in the sequence of rules decodebench
// made current, the first rule 0, and false for a rule not in it (the
// withdrawn robust-7, a rule a test defines). The sequence only grows: a
// build writes no rule older than the newest its history had made
// current but for the hours a rule was withdrawn (robust-6 went back to
// robust-5, robust-7 to robust-6), which RuleSince's dates do not
// reverse.
func RuleOrder(r Rule) (int, bool) {
	if r == RuleMedianU {
		return 0, true
	}
	for i, s := range ruleSince {
		if s.rule == r {
			return i + 1, true
		}
	}
	return 0, false
}

// RuleAt is the rule a build of commit (a prefix of its hash of at least
// seven hex digits, as a record's method.commit holds it) writes, where
// commit is one of those that changed RuleCurrent (ruleSince's, and those
// that withdrew a rule or made one current again): a record written by a
// clean build of it names that rule. Other commits are not known here.
func RuleAt(commit string) (Rule, bool) {
	if len(commit) < 7 {
		return "", false
	}
	for _, s := range ruleSince {
		if strings.HasPrefix(commit, s.commit) {
			return s.rule, true
		}
	}
	for _, c := range ruleChanges {
		if strings.HasPrefix(commit, c.commit) {
			return c.rule, true
		}
	}
	return "", false
}

// ruleChanges are the commits that changed RuleCurrent other than by
// making a rule current for the first time.
var ruleChanges = []struct {
	commit string
	rule   Rule
}{
	{"a0419f7", RuleRobust5},      // robust-6 withdrawn to a candidate
	{"1db22a3", RuleRobust6},      // robust-6 current again
	{"fdb2a22", Rule("robust-7")}, // robust-7, withdrawn within the hour
	{"0673c1b", RuleRobust6},      // robust-7 withdrawn
}

// ruleSince lists the rules made current, in order, each with the commit
// that first made it so and that commit's author date.
var ruleSince = []struct {
	rule   Rule
	commit string
	since  time.Time
}{
	{RuleRobust1, "37b3b30", time.Date(2026, 12, 1, 21, 34, 27, 0, time.UTC)},
	{RuleRobust2, "3946ba1", time.Date(2026, 12, 2, 1, 39, 0, 0, time.UTC)},
	{RuleRobust3, "08ad875", time.Date(2026, 12, 2, 3, 12, 4, 0, time.UTC)},
	{RuleRobust4, "74acb34", time.Date(2026, 12, 3, 10, 2, 29, 0, time.UTC)},
	{RuleRobust5, "183fac9", time.Date(2026, 12, 3, 14, 59, 41, 0, time.UTC)},
	{RuleRobust6, "33a6768", time.Date(2026, 12, 4, 13, 22, 25, 0, time.UTC)},
	{RuleRobust8, "2258107", time.Date(2026, 12, 5, 2, 4, 14, 0, time.UTC)},
	{RuleRobust9, "834e460", time.Date(2026, 12, 5, 4, 27, 16, 0, time.UTC)},
	{RuleRobust10, "295ebe3", time.Date(2026, 12, 5, 8, 38, 44, 0, time.UTC)},
	{RuleRobust11, "f9b6496", time.Date(2026, 12, 5, 20, 15, 40, 0, time.UTC)},
	{RuleRobust12, "d41c584", time.Date(2026, 12, 6, 3, 41, 39, 0, time.UTC)},
	{RuleRobust13, "1230eca", time.Date(2026, 12, 6, 5, 23, 57, 0, time.UTC)},
	{RuleRobust14, "5187862", time.Date(2026, 12, 6, 6, 28, 56, 0, time.UTC)},
	{RuleRobust15, "f1e2796", time.Date(2026, 12, 6, 8, 50, 34, 0, time.UTC)},
	{RuleRobust16, "5ca1b67", time.Date(2026, 12, 6, 13, 7, 47, 0, time.UTC)},
	{RuleRobust17, "86e480c", time.Date(2026, 12, 6, 22, 46, 44, 0, time.UTC)},
}

package recorder

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxStemBytes bounds a record's file stem: the record is <stem>.md and its
// data folder's longest file name is derived from it, so the stem leaves
// room under the 255-byte limit most file systems put on a name.
const maxStemBytes = 200

// CheckName reports whether a record named after feature, hardware slug
// and date can be written: each part well formed, the date a real calendar
// date, and the longest name Reserve may pick (with a -999 suffix) short
// enough for a file name. validate and run call it before anything is
// created, so a bad name never fails halfway through a campaign.
func CheckName(feature, hw, date string) error {
	if !featureRE.MatchString(feature) {
		return fmt.Errorf("feature %q: must match [a-z0-9][a-z0-9-]*", feature)
	}
	if err := CheckHardware(hw); err != nil {
		return err
	}
	if err := CheckDate(date); err != nil {
		return err
	}
	stem := fmt.Sprintf("%s-%s-%s-999", feature, hw, date)
	if len(stem) > maxStemBytes {
		return fmt.Errorf("record name %s-%s-%s…: %d bytes with its -N suffix, more than the %d a record name may have (feature %d bytes, hardware slug %d): shorten the feature or the hardware slug",
			feature, hw, date, len(stem), maxStemBytes, len(feature), len(hw))
	}
	return nil
}

// CheckHardware reports whether hw is a hardware slug a record's name
// may hold.
func CheckHardware(hw string) error {
	if !slugRE.MatchString(hw) {
		return fmt.Errorf("hardware slug %q: must match [a-z0-9]+", hw)
	}
	return nil
}

// CheckDate reports whether date is a real calendar date written
// YYYY-MM-DD (2026-02-30 is not).
func CheckDate(date string) error {
	if !dateRE.MatchString(date) {
		return fmt.Errorf("date %q: want YYYY-MM-DD", date)
	}
	if _, err := time.Parse("2006-01-02", date); err != nil {
		return fmt.Errorf("date %q: not a calendar date (%v)", date, err)
	}
	return nil
}

// Stem is a record's file stem taken apart: <feature>-<hardware>-<date>,
// with -N (N ≥ 2) when an earlier record had the name.
type Stem struct {
	Feature, Hardware, Date string
	N                       int
}

// String writes the stem back.
func (s Stem) String() string {
	base := fmt.Sprintf("%s-%s-%s", s.Feature, s.Hardware, s.Date)
	if s.N > 1 {
		base += "-" + strconv.Itoa(s.N)
	}
	return base
}

// ParseStem takes apart the file stem of a record of feature (a data
// folder's name), refusing anything Reserve could not have picked: it is
// how a resumed campaign finds its record's name without trusting a path
// written in a file.
func ParseStem(stem, feature string) (Stem, error) {
	bad := func(why string) (Stem, error) {
		return Stem{}, fmt.Errorf("%q is not the name of a record of feature %q (<feature>-<hardware>-<YYYY-MM-DD>[-N]): %s", stem, feature, why)
	}
	rest, ok := strings.CutPrefix(stem, feature+"-")
	if !ok {
		return bad("it does not begin with the feature")
	}
	hw, rest, ok := strings.Cut(rest, "-")
	if !ok {
		return bad("no hardware slug and date")
	}
	if len(rest) < len("2006-01-02") {
		return bad("no date")
	}
	st := Stem{Feature: feature, Hardware: hw, Date: rest[:10]}
	if suffix := rest[10:]; suffix != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(suffix, "-"))
		if !strings.HasPrefix(suffix, "-") || err != nil || n < 2 || n > 999 || strconv.Itoa(n) != suffix[1:] {
			return bad(fmt.Sprintf("%q after the date is not a -N suffix", suffix))
		}
		st.N = n
	}
	if err := CheckName(st.Feature, st.Hardware, st.Date); err != nil {
		return bad(err.Error())
	}
	if st.String() != stem {
		return bad("it does not read back the same")
	}
	return st, nil
}

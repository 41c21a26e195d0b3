package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/history"
)

// ChangeText is one difference between the records on either side of a
// step, as "MODEL_DIR: a → b" or "model -m: sha256 1a2b3c4d5e6f → …".
func ChangeText(c history.Change) string {
	before, after := orNone(c.Before), orNone(c.After)
	switch c.Kind {
	case history.ChangeVar:
		return fmt.Sprintf("%s: %s → %s", c.Name, before, after)
	case history.ChangeOverrides:
		return fmt.Sprintf("overrides: %q → %q", c.Before, c.After)
	case history.ChangeEngineBinary:
		return fmt.Sprintf("engine binary: sha256 %s → %s", orNone(short(c.Before)), orNone(short(c.After)))
	case history.ChangeEngineVersion:
		return fmt.Sprintf("engine version: %s → %s", before, after)
	case history.ChangeSourceCommit:
		return fmt.Sprintf("source commit: %s → %s", before, after)
	case history.ChangeModel:
		return fmt.Sprintf("model file %s: sha256 %s → %s", c.Name, orNone(short(c.Before)), orNone(short(c.After)))
	case history.ChangeCommand:
		return "baseline command: " + commandDiff(c.Before, c.After)
	}
	return fmt.Sprintf("%s %s: %s → %s", c.Kind, c.Name, before, after)
}

// ChangesText is a step's changes joined by "; ", or "nothing recorded
// differs" when there are none.
func ChangesText(cs []history.Change) string {
	if len(cs) == 0 {
		return "nothing recorded differs"
	}
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += "; "
		}
		s += ChangeText(c)
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// commandDiff is two command lines' differing words, "a → b" each, when
// they have as many words; else both lines.
func commandDiff(a, b string) string {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) {
		return orNone(a) + " → " + orNone(b)
	}
	var d []string
	for i := range wa {
		if wa[i] != wb[i] {
			d = append(d, wa[i]+" → "+wb[i])
		}
	}
	return strings.Join(d, ", ")
}

package review

import (
	"fmt"

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
		return fmt.Sprintf("model %s: sha256 %s → %s", c.Name, orNone(short(c.Before)), orNone(short(c.After)))
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

package scenarios

import (
	"fmt"
	"strings"
)

// CompareOrigin is the origin of the scenario Compare generates: its
// problems name what on compare's command line a key came from, not a
// line of a file the user never wrote. BinFlags says the binaries came
// from --base and --head (the arguments after -- being both's), else
// from the two command lines; set lists --set's overrides.
func CompareOrigin(a CompareArms, binFlags bool, set []string) Origin {
	word := func(side string, argv []string, i int) string {
		switch {
		case i >= len(argv):
			return "compare (the --host or --port it adds to the " + side + " command line)"
		case binFlags && i == 0:
			return "compare --" + side
		case binFlags:
			return fmt.Sprintf("compare, argument %d after --", i)
		}
		return fmt.Sprintf("compare, word %d of the %s command line", i+1, side)
	}
	return Origin{Generated: func(key string) string {
		var i int
		if _, err := fmt.Sscanf(key, "engine.command[%d]", &i); err == nil {
			return word("base", a.Base, i)
		}
		if _, err := fmt.Sscanf(key, "arms[1].engine.command[%d]", &i); err == nil {
			return word("head", a.Head, i)
		}
		if key == overrideKey {
			return "compare --set"
		}
		for _, kv := range set {
			if k, _, _ := strings.Cut(kv, "="); k != "" && (key == k || strings.HasPrefix(key, k+".") || strings.HasPrefix(key, k+"[")) {
				return "compare --set " + kv
			}
		}
		if a.Rounds > 0 && strings.HasPrefix(key, "schedule.rounds") {
			return "compare --rounds"
		}
		return "the scenario compare generates (compare --dry-run prints it)"
	}}
}

package scenarios

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Rounds is schedule.rounds: a fixed number of measured runs per arm
// (`rounds: 5`), or an adaptive range (`rounds: {min: 5, max: 30,
// until_ci_width: 2%}`) in which whole rounds are added until every arm's
// ratio interval is narrower than UntilCIWidth or Max is reached; or
// sequential (`rounds: {min: 5, max: 30, every: 5}`), in which the
// verdict is looked at after Min rounds and every Every rounds after, up
// to Max, and the campaign stops at the first look that decides every
// test arm, the error budget spent over the looks (schema.Sequential). A
// sequential schedule may have a budget in minutes (`rounds: {min: 5,
// max_time: 10m, every: 5}`, with or without max): it looks on until a
// decision, the budget or max, whichever comes first, the budget judged at
// each look by the time a round has taken so far.
type Rounds struct {
	Min          int      `yaml:"min" json:"min"`
	Max          int      `yaml:"max" json:"max,omitempty"`
	UntilCIWidth Fraction `yaml:"until_ci_width" json:"until_ci_width,omitempty"`
	Every        int      `yaml:"every" json:"every,omitempty"`
	MaxTime      Duration `yaml:"max_time" json:"max_time,omitzero"`
}

// BudgetRounds bounds max for a schedule with a budget in minutes and no
// max of its own: the looks it may take, of which the budget decides.
const BudgetRounds = 100

// budgetMax is the max of a budget without one: the last look within
// BudgetRounds (min plus a multiple of every), at least min. Under a
// budget a look goes on only when every more rounds fit, so a max off the
// looks' grid would never be reached (and validate would warn about a max
// nobody gave).
func (r Rounds) budgetMax() int {
	if r.Every <= 0 || r.Min >= BudgetRounds {
		return max(BudgetRounds, r.Min)
	}
	return r.Min + (BudgetRounds-r.Min)/r.Every*r.Every
}

// Sequential reports whether the rounds are looked at sequentially.
func (r Rounds) Sequential() bool { return r.Adaptive() && r.Every > 0 }

// WidthStops reports an adaptive schedule that stops on its ratio
// intervals' width (until_ci_width), not on sequential looks.
func (r Rounds) WidthStops() bool { return r.Adaptive() && r.Every == 0 && r.UntilCIWidth > 0 }

// Looks are the numbers of rounds after which a sequential schedule
// looks: Min, Min+Every, … and Max. Nil unless Sequential.
func (r Rounds) Looks() []int {
	if !r.Sequential() {
		return nil
	}
	var out []int
	for n := r.Min; n < r.Max; n += r.Every {
		out = append(out, n)
	}
	return append(out, r.Max)
}

// OnGrid is r with Max lowered to its last look on the grid Min, Min +
// Every, …: what a budget runs, since under a budget a look goes on only
// when Every more rounds fit, so a Max off the grid is never reached
// (validate warns). Estimates and plans under a budget take it.
func (r Rounds) OnGrid() Rounds {
	if r.Sequential() {
		r.Max -= (r.Max - r.Min) % r.Every
	}
	return r
}

// Adaptive reports whether more rounds than Min may be run.
func (r Rounds) Adaptive() bool { return r.Max > r.Min }

func (r *Rounds) checkNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!int" {
			return "expected an integer or {min, max, max_time, until_ci_width, every}, got " + kindName(n)
		}
		if !fitsInt(n) {
			return "integer " + n.Value + " is out of range"
		}
		return ""
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "min", "max", "every":
				if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
					return fmt.Sprintf("%s: expected an integer, got %s", k.Value, kindName(v))
				}
				if !fitsInt(v) {
					return fmt.Sprintf("%s: integer %s is out of range", k.Value, v.Value)
				}
			case "until_ci_width":
				var f Fraction
				if msg := f.checkNode(v); msg != "" {
					return "until_ci_width: " + msg
				}
			case "max_time":
				var d Duration
				if v.Kind != yaml.ScalarNode || d.UnmarshalText([]byte(v.Value)) != nil {
					return "max_time: expected a duration such as 10m or 1h30m"
				}
			default:
				return fmt.Sprintf("unknown key %q (known: min, max, max_time, until_ci_width, every)", k.Value)
			}
		}
		return ""
	}
	return "expected an integer or {min, max, max_time, until_ci_width, every}, got " + kindName(n)
}

// UnmarshalYAML reads either form.
func (r *Rounds) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var v int
		if err := n.Decode(&v); err != nil {
			return err
		}
		*r = Rounds{Min: v, Max: v}
		return nil
	}
	type plain Rounds
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*r = Rounds(p)
	return nil
}

// fitsInt reports whether an !!int scalar decodes into an int.
func fitsInt(n *yaml.Node) bool {
	var v int
	return n.Decode(&v) == nil
}

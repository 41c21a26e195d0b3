package planner

import "github.com/decodebench/decodebench/internal/workers"

// each is f of every element of xs, in their order, computed on the
// machine's cores: a plan evaluates each number of measured requests a
// start on its own (about a hundred MDEs, each a bisection over the t
// law), and plan does not run beside an engine it would slow.
func each[T, R any](xs []T, f func(T) R) []R {
	out := make([]R, len(xs))
	workers.ForEach(len(xs), func(i int) { out[i] = f(xs[i]) })
	return out
}

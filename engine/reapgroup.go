//go:build unix

package engine

// ReapStaleGroup is ReapStale for a command whose tree outlives its
// leader (a build: the parent-death signal ends its shell, not what the
// shell started). ReapStale kills a dead leader's group as it does an
// engine's, so the two are one; the name says what the caller relies on.
func ReapStaleGroup(path string) (string, error) { return ReapStale(path) }

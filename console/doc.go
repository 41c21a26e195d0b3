// Package console writes typed data as text for a person at a terminal:
// the plan of a dry run with its estimated duration, and the machine's
// identity and snapshots of its state. Nothing here computes: the plan,
// the costs and the samples come from the packages that own them
// (harness, estimate, machine), and the commands decide what to print.
package console

package schema

import "fmt"

// RunLog is the path, in the data folder, of the engine log of the run of
// slot seq and arm: every attempt of the slot writes it afresh (a command
// engine's warmups and measured run append to one), and no other slot's
// run names it.
func RunLog(seq int, arm string) string {
	return fmt.Sprintf("logs/run-%03d-%s.log", seq, arm)
}

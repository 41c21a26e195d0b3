// Package machine describes the computer a benchmark runs on.
//
// A decode-speed number means little without the hardware it was measured on
// and without knowing whether something else was competing for that hardware.
// Identify answers the first question once per benchmark; a Sampler answers
// the second before and after every measured run, cheaply enough that it does
// not disturb what it observes.
package machine

// Package anonfile makes anonymous files: files without a name that anyone
// could open, appended to by every writer (a child's standard output and
// error, and any process it starts, can share one), gone once the last
// process holding one closes it. On Linux one is an anonymous memory file
// (memfd); elsewhere a temporary file, private to this user, unlinked at
// once. What was read of one can be freed (PunchHole) while it is still
// written to.
//
// The engine's output spool and the nvidia-smi sampler's output are
// anonymous files. The package imports nothing of decodebench's.
package anonfile

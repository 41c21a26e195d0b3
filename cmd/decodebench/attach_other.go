//go:build !linux

package main

// denyAttach does nothing where there is no PR_SET_DUMPABLE (macOS asks
// for a debugger's entitlement or root to attach to another process).
func denyAttach() error { return nil }

func attachDenied() bool { return false }

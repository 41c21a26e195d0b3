//go:build !linux

package machine

import "context"

func listProcesses(ctx context.Context) ([]Proc, error) { return listLibrary(ctx) }

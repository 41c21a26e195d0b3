package engine

import (
	"context"
	"fmt"

	"github.com/decodebench/decodebench/internal/safefs"
)

// mappedFiles reads the files process pid has mapped from /proc.
func mappedFiles(_ context.Context, pid int) ([]string, error) {
	b, err := safefs.ReadNamed(fmt.Sprintf("/proc/%d/maps", pid), 64<<20)
	if err != nil {
		return nil, fmt.Errorf("mapped files of process %d: %w", pid, err)
	}
	return parseMaps(b), nil
}

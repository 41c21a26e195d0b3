//go:build unix && !linux

package engine

import "os"

func spoolFile() (*os.File, error) { return tempSpool() }

package review

import (
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// LoadPair loads both records with their runs.
func LoadPair(oldPath, newPath string) (*schema.Record, *schema.Record, error) {
	a, err := recorder.Load(oldPath)
	if err != nil {
		return nil, nil, err
	}
	b, err := recorder.Load(newPath)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

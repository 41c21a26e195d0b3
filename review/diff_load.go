package review

import (
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// LoadPair loads both records with their runs' figures
// (recorder.LoadFigures: what Compare reads), never their texts.
func LoadPair(oldPath, newPath string) (*schema.Record, *schema.Record, error) {
	a, err := recorder.LoadFigures(oldPath)
	if err != nil {
		return nil, nil, err
	}
	b, err := recorder.LoadFigures(newPath)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

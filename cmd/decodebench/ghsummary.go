package main

import (
	"errors"
	"os"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
)

// appendGitHubSummary appends the campaign's verdict and headline table to
// the GitHub Actions job summary file.
func appendGitHubSummary(path string, out *harness.Outcome) error {
	if path == "" {
		return errors.New("GITHUB_STEP_SUMMARY is not set")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := recorder.Headline(f, out.Record, out.RecordPath); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

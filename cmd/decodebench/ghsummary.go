package main

import (
	"errors"
	"os"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// appendGitHubSummary appends the campaign's verdict and headline table to
// the GitHub Actions job summary file.
func appendGitHubSummary(path string, out *harness.Outcome) error {
	if path == "" {
		return errors.New("GITHUB_STEP_SUMMARY is not set")
	}
	// The runner hands over a regular file it made and reads it after the
	// step, so it is appended to in place (not replaced), but only as a
	// regular file: a link at the path is refused (the Actions runner
	// never makes one), and so is a FIFO, without blocking on it.
	f, err := safefs.OpenAppend(path, 0o644)
	if err != nil {
		return err
	}
	if err := recorder.Headline(f, out.Record, out.RecordPath); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// summaryFlag is run's --github-summary [FILE]: on by itself (appending to
// $GITHUB_STEP_SUMMARY, and on by default when that is set), or given the
// file to append to; --github-summary=false turns it off.
type summaryFlag struct {
	on   bool
	path string
}

func newSummaryFlag() *summaryFlag { return &summaryFlag{on: os.Getenv("GITHUB_STEP_SUMMARY") != ""} }

func (s *summaryFlag) Set(v string) error {
	switch v {
	case "true":
		s.on = true
	case "false":
		s.on, s.path = false, ""
	default:
		s.on, s.path = true, v
	}
	return nil
}

func (s *summaryFlag) String() string {
	if s == nil || !s.on {
		return ""
	}
	return s.file()
}

// IsBoolFlag lets the flag stand without a value.
func (s *summaryFlag) IsBoolFlag() bool { return true }

// file is where the summary goes.
func (s *summaryFlag) file() string {
	if s.path != "" {
		return s.path
	}
	return os.Getenv("GITHUB_STEP_SUMMARY")
}

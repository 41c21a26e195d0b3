package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain gives the tests a host lock folder of their own (the engine
// registry lives beside DECODEBENCH_LOCK), never the user's: a campaign
// running on the host must not meet the tests' engines, nor they its.
func TestMain(m *testing.M) {
	// This binary started again by a test runs under its starter's lock.
	if os.Getenv("DECODEBENCH_TEST_PRIVATE_LOCK") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "decodebench-harness-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("DECODEBENCH_LOCK", filepath.Join(dir, "host.lock"))
	os.Setenv("DECODEBENCH_TEST_PRIVATE_LOCK", "1")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

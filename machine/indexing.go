package machine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
)

// IndexingState is what PauseIndexing turned off, and so must turn back
// on: Spotlight indexing of every volume (mdutil) and Time Machine's
// automatic backups (tmutil).
type IndexingState struct {
	Spotlight   bool `json:"spotlight"`
	TimeMachine bool `json:"time_machine"`
}

// IndexingMarker is the file, beside the host lock, that says indexing is
// paused and how to restore it. It is written before anything is paused
// and removed after the restore, so that a campaign that died (SIGKILL, a
// crash) leaves it behind for the next campaign to restore.
func IndexingMarker() string {
	return filepath.Join(filepath.Dir(LockPath()), fmt.Sprintf("decodebench-indexing-paused-%d.json", os.Geteuid()))
}

// PauseIndexing pauses Spotlight indexing and Time Machine for a campaign
// on macOS: it reads whether each is on (mdutil -s /, tmutil's
// AutoBackup preference), writes the marker naming those that are, turns
// them off, and returns the restore. Both need root; a refusal is the
// error, and whatever was paused by then is restored at once.
func PauseIndexing(ctx context.Context, marker string) (IndexingState, error) {
	return pauseIndexing(ctx, runTool, marker)
}

// RestoreIndexing turns back on what a marker says was paused and removes
// the marker; it does nothing without one. A campaign calls it on every
// exit path, and at its start for a marker an earlier one left.
func RestoreIndexing(ctx context.Context, marker string) (IndexingState, error) {
	return restoreIndexing(ctx, runTool, marker)
}

func pauseIndexing(ctx context.Context, run runner, marker string) (IndexingState, error) {
	var st IndexingState
	if out, err := run(ctx, "mdutil", "-s", "/"); err != nil {
		return st, fmt.Errorf("mdutil -s /: %w", err)
	} else {
		st.Spotlight = spotlightEnabled(out)
	}
	if out, err := run(ctx, "defaults", "read", "/Library/Preferences/com.apple.TimeMachine", "AutoBackup"); err == nil {
		st.TimeMachine = strings.TrimSpace(string(out)) == "1"
	}
	b, _ := json.Marshal(st)
	// The marker's folder may be /tmp: written create-exclusive under a
	// fresh name and renamed over the marker, so a link or FIFO another
	// user planted at the marker's name is replaced, never followed.
	if err := safefs.WriteFile(marker, b, 0o600); err != nil {
		return IndexingState{}, fmt.Errorf("indexing marker: %w", err)
	}
	var errs []error
	if st.Spotlight {
		if _, err := run(ctx, "mdutil", "-a", "-i", "off"); err != nil {
			errs = append(errs, fmt.Errorf("mdutil -a -i off: %w", err))
		}
	}
	if st.TimeMachine {
		if _, err := run(ctx, "tmutil", "disable"); err != nil {
			errs = append(errs, fmt.Errorf("tmutil disable: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		_, rerr := restoreIndexing(context.WithoutCancel(ctx), run, marker)
		return IndexingState{}, errors.Join(err, rerr)
	}
	return st, nil
}

// maxIndexingMarker bounds the marker read back (it holds two booleans).
const maxIndexingMarker = 64 << 10

func restoreIndexing(ctx context.Context, run runner, marker string) (IndexingState, error) {
	// Through the guarded reader: a link, a FIFO or a device in the
	// marker's place is refused at once, not followed, hung on or read
	// without end.
	b, err := safefs.ReadFile(marker, maxIndexingMarker)
	if errors.Is(err, os.ErrNotExist) {
		return IndexingState{}, nil
	}
	if err != nil {
		return IndexingState{}, fmt.Errorf("indexing marker: %w", err)
	}
	var st IndexingState
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("indexing marker %s: %w", marker, err)
	}
	var errs []error
	if st.Spotlight {
		if _, err := run(ctx, "mdutil", "-a", "-i", "on"); err != nil {
			errs = append(errs, fmt.Errorf("mdutil -a -i on: %w", err))
		}
	}
	if st.TimeMachine {
		if _, err := run(ctx, "tmutil", "enable"); err != nil {
			errs = append(errs, fmt.Errorf("tmutil enable: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return st, err // the marker stays: the next campaign tries again
	}
	return st, os.Remove(marker)
}

// spotlightEnabled reads `mdutil -s /`: "Indexing enabled." is on;
// "Indexing disabled." and "Indexing enabled. (disabled)" are off.
func spotlightEnabled(out []byte) bool {
	s := strings.ToLower(string(out))
	return strings.Contains(s, "indexing enabled") && !strings.Contains(s, "(disabled)")
}

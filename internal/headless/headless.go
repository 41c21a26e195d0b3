// Package headless starts Chromium without a window for the site's
// browser tests and benchmarks (chromedp), the way the machine it runs
// on allows: no sandbox, no GPU, no network of its own (no QUIC, no
// background, component or sync traffic), a new empty profile. It keeps
// what the pages say went wrong: exceptions, console errors and the
// browser's own error entries (a refused Content-Security-Policy, a file
// that does not load).
//
// Chromium is Debian's package (`apt-get install chromium`; .ci/run
// installs it): DECODEBENCH_CHROMIUM names another. Without one a test
// is skipped, except where CI=true, where it fails.
package headless

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Find is the Chromium to run: DECODEBENCH_CHROMIUM, else chromium or
// chromium-browser on PATH.
func Find() (string, error) {
	if p := os.Getenv("DECODEBENCH_CHROMIUM"); p != "" {
		return exec.LookPath(p)
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on PATH (apt-get install chromium, or set DECODEBENCH_CHROMIUM)")
}

// Browser is one headless Chromium with one tab.
type Browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// Start starts Chromium for tb, and stops it when tb ends. Without
// Chromium, tb is skipped, or fails when CI=true: the browser tests never
// skip in CI.
func Start(tb testing.TB, width, height int) *Browser {
	tb.Helper()
	path, err := Find()
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("CI=true and %v", err)
		}
		tb.Skip(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &Browser{ctx: ctx}
	err = chromedp.Do(ctx, focused) // starts the browser, with no timeout
	if err == nil {
		err = chromedp.Listen(ctx, b.listen)
	}
	if err != nil {
		cancel()
		cancelAlloc()
		tb.Fatalf("start %s: %v", path, err)
	}
	tb.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	return b
}

// focused makes the tab behave as the focused window of a desktop: a
// headless tab has no focus of its own, and an element's focus fires no
// focus event without it.
var focused = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	return err
})

func (b *Browser) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg = "exception: " + ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			msg += " " + ev.ExceptionDetails.Exception.Description
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type != "error" && ev.Type != "warning" && ev.Type != "assert" {
			return
		}
		var args []string
		for _, a := range ev.Args {
			args = append(args, strings.Trim(string(a.Value), `"`)+a.Description)
		}
		msg = "console " + string(ev.Type) + ": " + strings.Join(args, " ")
	case *log.EventEntryAdded:
		if ev.Entry.Level != "error" && ev.Entry.Level != "warning" {
			return
		}
		msg = fmt.Sprintf("%s %s: %s (%s)", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	b.mu.Lock()
	b.errors = append(b.errors, msg)
	b.mu.Unlock()
}

// Errors are what went wrong in the pages so far, and forgets them.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.errors
	b.errors = nil
	return out
}

// Do runs actions in the tab, in order, within timeout.
func (b *Browser) Do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// Run runs an action in the tab within timeout, and returns its value.
func Run[T any](b *Browser, timeout time.Duration, action chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, action)
}

// FileURL is a file's file:// URL.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Timing is a page's load as the browser's Navigation Timing and paint
// entries give it, in milliseconds from the navigation's start, and
// Rendered: after the load, the end of the second animation frame (the
// page laid out and painted once).
type Timing struct {
	DOMContentLoaded float64 `json:"dcl"`
	Load             float64 `json:"load"`
	FirstPaint       float64 `json:"fcp"`
	Rendered         float64 `json:"rendered"`
	Nodes            int     `json:"nodes"`
}

// timingJS measures a loaded page: the promise resolves after two
// animation frames.
const timingJS = `new Promise(function (done) {
  requestAnimationFrame(function () { requestAnimationFrame(function () {
    var nav = performance.getEntriesByType('navigation')[0];
    var fcp = performance.getEntriesByName('first-contentful-paint')[0];
    done({dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, fcp: fcp ? fcp.startTime : 0,
      rendered: performance.now(), nodes: document.getElementsByTagName('*').length});
  }); });
})`

// Load navigates to url and measures it (Timing).
func (b *Browser) Load(url string, timeout time.Duration) (Timing, error) {
	if err := b.Do(timeout, chromedp.Navigate(url)); err != nil {
		return Timing{}, err
	}
	return Run(b, timeout, chromedp.Evaluate[Timing](timingJS, chromedp.EvalAwaitPromise))
}

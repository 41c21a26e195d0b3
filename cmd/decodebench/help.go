package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// Help is decodebench's own text, never a secret: it is escaped like
// everything printed, but not redacted. Through the console's redactor,
// the placeholder KEY=VALUE run --set had read as a credential
// ("KEY=[redacted]"), and the shortened words misaligned the options'
// column (a test in internal/sourcestyle keeps such forms out of every
// fixed text now: run --set says PATH=VALUE).
func init() {
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		cli.HelpPrinterCustom(helpWriter(w), templ, data, nil)
	}
}

// helpWriter is w without its redaction: a console writer's escaping
// onto the same output, anything else as it is.
func helpWriter(w io.Writer) io.Writer {
	if t, ok := w.(*termsafe.Writer); ok {
		return termsafe.NewWriter(t.Unwrap(), nil)
	}
	return w
}

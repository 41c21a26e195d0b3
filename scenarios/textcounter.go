package scenarios

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// VersionOutput is the value of a version counter that reads the whole
// version output (version: output).
const VersionOutput = "output"

// ParseExpect parses one of the counter's expectations: text may be
// compared ("== b11669") when the counter reads text (props, version).
func (c Counter) ParseExpect(ex string) (Expectation, error) {
	if kind, _ := c.Source(); kind.Text() {
		return ParseTextExpectation(ex)
	}
	return ParseExpectation(ex)
}

// validateTextCounter checks the keys of the counters that read text: the
// server's GET /props (props: build_info) and the engine's version output
// (version: output), with an optional capture pattern.
func (s *Scenario) validateTextCounter(p *problems, key string, c Counter) {
	kind, _ := c.Source()
	if c.Capture != "" {
		if !kind.Text() {
			p.at(key+".capture", "capture narrows the text of a props or version counter; a %s counter's pattern carries its own group", kind)
		} else {
			checkCapture(p, key+".capture", c.Capture)
		}
	}
	switch kind {
	case schema.SourceProps:
		if s.Engine.IsCommand() {
			p.at(key+".props", "a command engine has no GET /props: read the build from version: output, or from its output with log:")
		}
		for _, part := range strings.Split(c.Props, ".") {
			if part == "" {
				p.at(key+".props", "%q: a dotted path such as build_info, without empty parts", c.Props)
				break
			}
		}
	case schema.SourceVersion:
		if c.Version != VersionOutput {
			p.at(key+".version", "%q: write version: %s (the arm engine's version command output, else its --version); narrow it with capture:", c.Version, VersionOutput)
		}
	}
}

// CaptureText applies a text counter's capture pattern to what it read:
// the pattern's group, or ok false when it does not match. Without a
// pattern the text is trimmed of surrounding space.
func (c CounterPolicy) CaptureText(text string) (string, bool) {
	if c.Capture == nil {
		return strings.TrimSpace(text), true
	}
	m := c.Capture.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// String describes the source for messages.
func (c CounterPolicy) String() string {
	if c.Capture != nil {
		return fmt.Sprintf("%s %s, capture %s", c.Kind, c.Expr, c.Capture)
	}
	return fmt.Sprintf("%s %s", c.Kind, c.Expr)
}

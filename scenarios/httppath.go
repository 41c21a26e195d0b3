package scenarios

import (
	"net/url"
	"strings"
)

// badHTTPPath says why p, which starts with "/", is not a path an HTTP
// request can be made to ("" when it is): a bad %-escape ("/health%zz")
// or a control character made the request fail to build, and a run
// panicked on it.
func badHTTPPath(p string) string {
	if strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "holds a control character: not an HTTP path"
	}
	if _, err := url.ParseRequestURI("http://localhost" + p); err != nil {
		return "is not an HTTP path: " + err.Error()
	}
	return ""
}

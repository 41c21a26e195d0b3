package scenarios

import (
	"fmt"
	"net"
	"regexp"
	"sort"
	"strings"
)

// hostFlag reports whether an engine argument names the address the server
// binds: --host, --bind and --bind-*, --listen and --listen-*, and -H.
func hostFlag(flag string) bool {
	switch {
	case flag == "--host" || flag == "-H":
		return true
	case flag == "--bind" || strings.HasPrefix(flag, "--bind-") || strings.HasPrefix(flag, "--bind_"):
		return true
	case flag == "--listen" || strings.HasPrefix(flag, "--listen-") || strings.HasPrefix(flag, "--listen_"):
		return true
	}
	return false
}

// hostEnvRE matches environment names that set a server's bind address:
// LLAMA_ARG_HOST, HOST, OLLAMA_HOST, *_BIND_ADDRESS, *_LISTEN_ADDR…
var hostEnvRE = regexp.MustCompile(`(?i)(^|_)(HOST|BIND|LISTEN)(_ADDR|_ADDRESS)?$`)

// hostnameRE is what a -H value looks like when it is a host rather than,
// in tools like curl, a header ("Authorization: Bearer …").
var hostnameRE = regexp.MustCompile(`^[A-Za-z0-9.\-\[\]:*]*$`)

// warnNonLoopback warns when the engine is told to bind an address other
// than loopback, through a flag or an environment variable: a benchmark
// server reachable from the network is a risk, and scenarios come from pull
// requests. It runs on the expanded values, so ${HOST} set to 0.0.0.0 is
// caught too. It is a warning, so that run can copy it into the record.
func (s *Scenario) warnNonLoopback(p *problems) {
	warn := func(key, val string) {
		p.warn(key, "binds the engine to %q, which is not a loopback address: anyone on the network can reach it during the campaign; use 127.0.0.1", val)
	}
	args := func(key string, list []string) {
		for i, a := range list {
			flag, val, inline := strings.Cut(a, "=")
			if !hostFlag(flag) {
				continue
			}
			if !inline {
				if i+1 >= len(list) {
					continue
				}
				val = list[i+1]
			}
			if flag == "-H" && (!hostnameRE.MatchString(val) || val == "") {
				continue // a header, not a host
			}
			if !isLoopback(val) {
				warn(fmt.Sprintf("%s[%d]", key, i), val)
			}
		}
	}
	env := func(key string, m map[string]string) {
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if hostEnvRE.MatchString(k) && !isLoopback(m[k]) {
				warn(key+"."+k, m[k])
			}
		}
	}
	args("engine.command", s.Engine.Command)
	env("engine.env", s.Engine.Env)
	for i, arm := range s.Arms {
		args(fmt.Sprintf("arms[%d].args", i), arm.Args)
		env(fmt.Sprintf("arms[%d].env", i), arm.Env)
	}
}

// isLoopback reports whether a bind address, with or without a port, is a
// loopback address. A value still holding an unexpanded ${VAR} (offline
// parsing) cannot be judged and passes.
func isLoopback(host string) bool {
	if varRef.MatchString(host) {
		return true
	}
	h := strings.TrimSpace(host)
	if hp, _, err := net.SplitHostPort(h); err == nil {
		h = hp
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

package engine

// A server states its settings while it starts (llama-server: "llama
// threadpool init, n_threads = 1"), and no request, reply or metric says
// them again. A log counter of phase startup reads these lines: those the
// engine wrote from its launch until it answered ready, kept as written
// (unredacted, like the window's) and bounded like the window
// (MaxWindowBytes).

// KeepStartup makes the log keep the engine's lines until EndStartup.
func (l *Log) KeepStartup() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inStartup = true
}

func (l *Log) keepStartup(s string) {
	if l.startupKept+int64(len(s)) > MaxWindowBytes {
		l.startupCut++
		return
	}
	l.startup = append(l.startup, s)
	l.startupKept += int64(len(s))
}

// EndStartup ends the start-up: what the engine wrote before it (the
// spool read to its end, a last line without its newline included) is
// kept; nothing after.
func (l *Log) EndStartup() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.inStartup {
		return
	}
	l.drainLocked()
	if len(l.partial) > 0 {
		l.keepStartup(string(l.partial))
	}
	l.inStartup = false
	if l.startupCut > 0 {
		l.markLocked("the start-up's lines past %s (%d lines) were not kept for counters", sizeText(MaxWindowBytes), l.startupCut)
	}
}

// Startup is what the engine wrote while it started (KeepStartup), as
// written.
func (l *Log) Startup() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.startup
}

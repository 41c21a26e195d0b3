package scenarios

// MaxRequests bounds schedule.requests: past a few requests per start the
// between-start variance dominates (the record's noise anatomy says where
// the balance lies), and a start's measured window must stay short
// enough for the contention gate to mean something.
const MaxRequests = 32

// validateRequests checks schedule.requests: absent (1), or 1 to
// MaxRequests measured requests per engine start of a server (a command
// engine's run is one process, one request).
func (s *Scenario) validateRequests(p *problems) {
	n := s.Schedule.Requests
	switch {
	case n == 0:
	case n < 0 || n > MaxRequests:
		p.at("schedule.requests", "%d: measured requests per engine start must be 1 to %d", n, MaxRequests)
	case n > 1 && s.Engine.IsCommand():
		p.at("schedule.requests", "a command engine serves one request per start: requests must be 1")
	case n > 1:
		for _, a := range s.Arms {
			if a.Concurrency != nil && *a.Concurrency > 1 {
				p.at("schedule.requests", "arm %q sends %d concurrent streams: each start's concurrent streams are one measured request, so requests must be 1 with arms[].concurrency", a.Name, int(*a.Concurrency))
				return
			}
		}
	}
}

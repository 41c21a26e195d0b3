package harness

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// diagnose runs after the last measured window, never inside one: for each
// arm the identity check finds DIVERGENT, it starts the baseline's and the
// arm's engine once more, sends each the measured request again asking for
// the engine's top candidates per token, and keeps both sides' candidates
// at the first piece where the two replies differ (Method.Diagnosis). The
// analysis derives the margins and the class from them. An identical or
// undecidable comparison asks nothing.
func (c *campaign) diagnose(ctx context.Context) {
	x := c.policy.Exactness
	if x == nil || !x.Diagnose || ctx.Err() != nil {
		return
	}
	id := analysis.Analyze(c.input(c.rec.Runs)).Identity
	if id == nil || id.Verdict != schema.Divergent {
		return
	}
	base := map[int]probeReply{} // the baseline's probe, by run
	var probes []schema.DiagnosisProbe
	for _, arm := range id.Arms {
		if arm.Verdict != schema.Divergent {
			continue
		}
		c.progress.Printf("diagnosing the divergence of %s against %s (outside the measured windows): asking both for their top %d candidates per token", arm.Arm, id.Against, x.TopK)
		b, ok := base[arm.RunA]
		if !ok {
			b = c.probe(ctx, id.Against, arm.RunA)
			base[arm.RunA] = b
		}
		cmp := c.probe(ctx, arm.Arm, arm.RunB)
		p := schema.DiagnosisProbe{Arm: arm.Arm, TopK: x.TopK, PieceIndex: -1, ByteOffset: -1, Baseline: b.side, Compared: cmp.side}
		if b.side.Error == "" && cmp.side.Error == "" {
			if i, off := firstDifferentPiece(b.pieces, cmp.pieces); i >= 0 {
				p.PieceIndex, p.ByteOffset = i, off
				p.Baseline.Piece, p.Compared.Piece = &b.pieces[i], &cmp.pieces[i]
			}
		}
		probes = append(probes, p)
	}
	c.redact.Walk(&probes)
	c.rec.Method.Diagnosis = probes
}

// probeReply is one side's diagnosis reply.
type probeReply struct {
	side   schema.ProbeSide
	pieces []schema.Piece
}

// probe starts arm's engine, sends the candidates request and stops the
// engine; the reply must reproduce the output of the measured run seq.
func (c *campaign) probe(ctx context.Context, arm string, seq int) probeReply {
	out := probeReply{side: schema.ProbeSide{Arm: arm, Run: seq}}
	if c.scenario.Engine.IsCommand() {
		out.side.Error = "a command-line engine cannot be asked for log-probabilities"
		return out
	}
	var measured *schema.Run
	for i := range c.rec.Runs {
		if c.rec.Runs[i].Seq == seq && c.rec.Runs[i].OK() {
			measured = &c.rec.Runs[i]
		}
	}
	// The arm's own engine (arms[].engine), the file its runs executed,
	// checked as a run start checks it.
	l := c.scenario.Launch(arm)
	if err := c.engines.check(arm); err != nil {
		out.side.Error = "engine start: " + err.Error()
		return out
	}
	logName := filepath.Join("logs", fmt.Sprintf("diagnosis-%s.log", arm))
	defer c.sealFile(logName) // after the engine's stop, deferred below
	cfg := engine.Config{
		Command:      l.Command,
		Executable:   c.engines.executable(arm),
		Env:          l.Env,
		ReadyPath:    c.scenario.Engine.Ready.Path,
		ReadyTimeout: c.scenario.Engine.Ready.Timeout.Duration,
		StopGrace:    c.scenario.Engine.StopGrace.Duration,
		LogPath:      filepath.Join(c.dataDir, logName),
		Redact:       c.redact.Text,
		PIDFiles:     c.pidFiles(),
	}
	srv, err := engine.Start(ctx, cfg)
	if err != nil {
		out.side.Error = "engine start: " + err.Error()
		return out
	}
	defer srv.Stop()
	srv.Log.Mark("divergence diagnosis request (not measured)")
	text, pieces, err := engine.Candidates(ctx, srv.BaseURL, c.request(), c.policy.Exactness.TopK)
	if err != nil {
		out.side.Error = err.Error()
		return out
	}
	out.pieces = pieces
	if measured != nil {
		got := c.redact.Text(text)
		out.side.Reproduced = got == measured.Output
		out.side.Agrees = commonPrefix(got, measured.Output)
	}
	return out
}

// commonPrefix is the number of leading bytes a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// firstDifferentPiece returns the index of the first entry at which two
// replies differ (token id, length or text), and the offset in the reply's
// text it starts at (as the measured outputs count bytes: the engine's
// text, invalid bytes replaced); -1, -1 when one is a prefix of the other.
func firstDifferentPiece(a, b []schema.Piece) (int, int) {
	off := 0
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].ID != b[i].ID || a[i].Bytes != b[i].Bytes || a[i].Text != b[i].Text {
			return i, off
		}
		off += len(a[i].Text)
	}
	return -1, -1
}

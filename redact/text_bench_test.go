package redact

import "testing"

// BenchmarkTextLogLine is the redaction of one engine log line, which
// decodebench does for every line an engine prints, measured windows
// included: a line of llama-server's request log and a campaign's
// redactor with a few secrets learned.
func BenchmarkTextLogLine(b *testing.B) {
	r := New(Source{Envs: []map[string]string{{"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwx", "API_KEY": "k3y-value-123"}}})
	line := "slot print_timing: id  0 | task 12 | prompt eval time =      35.12 ms /    14 tokens (    2.51 ms per token,   398.63 tokens per second)"
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Text(line)
	}
}

// BenchmarkTextSettingsLine is the redaction of a line that passes the
// forms' prefilters (a secret name before a separator, a flag, a quote):
// an engine's start-up dump of its settings, the costliest common line.
func BenchmarkTextSettingsLine(b *testing.B) {
	r := New(Source{Envs: []map[string]string{{"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwx", "API_KEY": "k3y-value-123"}}})
	line := `non-default args: {'model': '/models/m.gguf', 'api_key': 'Zq9vLm3nXw7pRt2k', 'max_tokens': 64} --api-key Zq9vLm3nXw7pRt2k`
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Text(line)
	}
}

// Command engine is the engine of the bisect test: a small server that
// answers llama-server's streamed /completion (one event per token, then a
// final event with the `timings` block) and /health. The bisect test
// commits it into a fresh repository, changing perToken in one commit, and
// builds it with `go build` at every commit; build is set by the build
// command (-ldflags "-X main.build=N", N the commit's number) and reported
// in timings.build, so a counter proves which build served each run.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"
)

// perToken is the time each token takes.
const perToken = 3 * time.Millisecond

var build = "0"

type request struct {
	NPredict int  `json:"n_predict"`
	Stream   bool `json:"stream"`
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to bind")
	port := flag.Int("port", 8080, "port to bind")
	flag.Parse()
	buildN, _ := strconv.Atoi(build)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("POST /completion", func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		n := req.NPredict
		if n <= 0 {
			n = 16
		}
		start := time.Now()
		flusher, _ := w.(http.Flusher)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		content := ""
		for i := range n {
			// Each token is due at its own deadline, so a late wake-up
			// does not add up over the reply.
			time.Sleep(time.Until(start.Add(time.Duration(i+1) * perToken)))
			piece := string(rune('a' + i%26))
			content += piece
			if req.Stream {
				ev, _ := json.Marshal(map[string]any{"index": 0, "content": piece, "tokens": []int{i % 26}, "stop": false, "tokens_predicted": i + 1, "tokens_evaluated": 2})
				fmt.Fprintf(w, "data: %s\n\n", ev)
				if flusher != nil {
					flusher.Flush()
				}
			}
		}
		ms := float64(time.Since(start).Microseconds()) / 1000
		final := map[string]any{"index": 0, "content": "", "stop": true, "tokens_predicted": n, "tokens_evaluated": 2, "stop_type": "limit",
			"timings": map[string]any{"prompt_n": 2, "prompt_ms": 0.1, "predicted_n": n, "predicted_ms": ms,
				"predicted_per_token_ms": ms / float64(n), "predicted_per_second": float64(n) / ms * 1000, "build": buildN}}
		if !req.Stream {
			final["content"] = content
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(final)
			return
		}
		ev, _ := json.Marshal(final)
		fmt.Fprintf(w, "data: %s\n\n", ev)
	})
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("engine build %s listening on %s", build, ln.Addr())
	log.Fatal(http.Serve(ln, mux))
}

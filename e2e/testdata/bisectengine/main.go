// Command engine is the engine of the bisect and pull-request tests: a
// small server that answers llama-server's streamed /completion (one event
// per token, then a final event with the `timings` block) and /health.
// The bisect test commits it into a fresh repository, changing perToken in
// one commit, and builds it with `go build` at every commit; build is set
// by the build command (-ldflags "-X main.build=N", N the commit's number)
// and reported in timings.build, so a counter proves which build served
// each run.
//
// It speaks just enough HTTP/1.1 by hand (one request a connection, closed
// after the reply) and imports no more than net: the pull-request test
// builds it twice with empty Go caches, where net/http and encoding/json
// took 28.6 s a build on the 2-core VM and this takes 13.4 s.
package main

import (
	"bufio"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// perToken is the time each token takes.
const perToken = 3 * time.Millisecond

var build = "0"

func main() {
	host, port := "127.0.0.1", "8080"
	for i := 1; i < len(os.Args); i += 2 {
		a := os.Args[i]
		if (a != "--host" && a != "--port") || i+1 == len(os.Args) {
			// As the flag package would: --version, or anything else,
			// is not this engine's.
			os.Stderr.WriteString("engine: unknown or incomplete argument " + a + "\nusage: engine [--host HOST] [--port PORT]\n")
			os.Exit(2)
		}
		if a == "--host" {
			host = os.Args[i+1]
		} else {
			port = os.Args[i+1]
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stderr.WriteString("engine build " + build + " listening on " + ln.Addr().String() + "\n")
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		go serve(c)
	}
}

// serve answers one request on c and closes it.
func serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return
	}
	method, path, _ := strings.Cut(strings.TrimSpace(line), " ")
	path, _, _ = strings.Cut(path, " ")
	length := 0
	for {
		h, err := r.ReadString('\n')
		if err != nil {
			return
		}
		h = strings.TrimSpace(h)
		if h == "" {
			break
		}
		if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(k, "Content-Length") {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return
	}
	switch {
	case method == "GET" && path == "/health":
		reply(c, "200 OK", "application/json", `{"status":"ok"}`)
	case method == "POST" && path == "/completion":
		complete(c, string(body))
	default:
		reply(c, "404 Not Found", "text/plain", "not found\n")
	}
}

func reply(c net.Conn, status, kind, body string) {
	io.WriteString(c, "HTTP/1.1 "+status+"\r\nContent-Type: "+kind+"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\nConnection: close\r\n\r\n"+body)
}

// field is the raw JSON value of key in a flat object: enough for the
// request's n_predict and stream.
func field(obj, key string) string {
	_, after, ok := strings.Cut(obj, `"`+key+`"`)
	if !ok {
		return ""
	}
	after = strings.TrimLeft(after, " \t\r\n:")
	end := strings.IndexAny(after, ",}")
	if end < 0 {
		return strings.TrimSpace(after)
	}
	return strings.TrimSpace(after[:end])
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func complete(c net.Conn, req string) {
	n, _ := strconv.Atoi(field(req, "n_predict"))
	if n <= 0 {
		n = 16
	}
	stream := field(req, "stream") == "true"
	start := time.Now()
	if stream {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
	}
	content := ""
	for i := range n {
		// Each token is due at its own deadline, so a late wake-up does
		// not add up over the reply.
		time.Sleep(time.Until(start.Add(time.Duration(i+1) * perToken)))
		piece := string(rune('a' + i%26))
		content += piece
		if stream {
			io.WriteString(c, `data: {"index":0,"content":"`+piece+`","tokens":[`+strconv.Itoa(i%26)+`],"stop":false,"tokens_predicted":`+strconv.Itoa(i+1)+`,"tokens_evaluated":2}`+"\n\n")
		}
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	text := ""
	if !stream {
		text = content
	}
	final := `{"index":0,"content":"` + text + `","stop":true,"tokens_predicted":` + strconv.Itoa(n) + `,"tokens_evaluated":2,"stop_type":"limit",` +
		`"timings":{"prompt_n":2,"prompt_ms":0.1,"predicted_n":` + strconv.Itoa(n) + `,"predicted_ms":` + num(ms) +
		`,"predicted_per_token_ms":` + num(ms/float64(n)) + `,"predicted_per_second":` + num(float64(n)/ms*1000) + `,"build":` + build + `}}`
	if !stream {
		reply(c, "200 OK", "application/json", final+"\n")
		return
	}
	io.WriteString(c, "data: "+final+"\n\n")
}

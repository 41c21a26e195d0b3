package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PropsPath is llama-server's endpoint that describes the running server,
// its build (build_info) among the rest.
const PropsPath = "/props"

// Props fetches the server's GET /props reply.
func Props(ctx context.Context, baseURL string) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+PropsPath, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", PropsPath, quoteErr(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxQuotedBytes+1))
		return nil, fmt.Errorf("GET %s: HTTP %d: %s", PropsPath, resp.StatusCode, Quote(string(b)))
	}
	b, err := readBounded(resp.Body, MaxPropsBytes, "the reply to GET "+PropsPath)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", PropsPath, quoteErr(err))
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("GET %s: %w", PropsPath, quoteErr(err))
	}
	return v, nil
}

// JSONText follows a dotted path into a decoded JSON object and returns the
// value as text: a string as is, a number or boolean as JSON writes it. A
// missing field or null is reported as not found; an object or list is an
// error.
func JSONText(obj map[string]any, path string) (string, bool, error) {
	var cur any = obj
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false, nil
		}
		if cur, ok = m[part]; !ok {
			return "", false, nil
		}
	}
	switch v := cur.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true, nil
	case bool:
		return strconv.FormatBool(v), true, nil
	default:
		return "", true, fmt.Errorf("%s is a %T, not a value", path, v)
	}
}

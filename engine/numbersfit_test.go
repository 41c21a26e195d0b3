package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// numbersByDecoder is numbersFit as json's token decoder answers it.
func numbersByDecoder(v []byte) error {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	for {
		t, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n, ok := t.(json.Number); ok {
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", n)
			}
		}
	}
}

// numbersFit answers as the token decoder does on valid JSON: the first
// number a float64 cannot hold, outside strings (which may hold digits,
// exponents and escaped quotes), or none; on hand-made events and on
// seeded random ones.
func TestNumbersFitAsTheDecoder(t *testing.T) {
	cases := []string{
		`{"a":1e2,"b":[1.5E-3,-2e+10,0],"c":"1e999"}`,
		`{"a":"x\"1e999","b":1e999}`,
		`{"a":[1e308,1e309]}`,
		`{"a":-1e-400}`,
		`{"a":{"b":[{"c":-0.0e0}]},"d":true,"e":null}`,
		`{"1e999":2E400}`,
	}
	rng := rand.New(rand.NewPCG(7, 7))
	parts := []string{"1e2", "-3.5E-7", "1e999", "0", "12345678901234567890", "-1e-999", `"1e999"`, `"a\\\"1e400"`, "true", "null", "2.5e+308"}
	for range 2000 {
		var b strings.Builder
		b.WriteString(`{"x":[`)
		for j := range rng.IntN(6) {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		b.WriteString(`],"y":` + parts[rng.IntN(len(parts))] + `}`)
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if !json.Valid([]byte(c)) {
			t.Fatalf("not valid JSON: %s", c)
		}
		got, want := numbersFit([]byte(c)), numbersByDecoder([]byte(c))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: %v, the decoder %v", c, got, want)
		}
	}
}

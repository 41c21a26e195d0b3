package engine

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A props counter reads llama-server's real GET /props reply (build 11669,
// captured here; model paths shortened): build_info is "b11669-Debian",
// which a capture pattern narrows to the build.
func TestPropsCounterReadsBuildInfo(t *testing.T) {
	b, err := os.ReadFile("testdata/props-llama-server-b11669.json")
	if err != nil {
		t.Fatal(err)
	}
	var props map[string]any
	if err := json.Unmarshal(b, &props); err != nil {
		t.Fatal(err)
	}
	read := func(expr, capture string, o Observation) Reading {
		t.Helper()
		cp := scenarios.CounterPolicy{Name: "build", Kind: schema.SourceProps, Expr: expr}
		if capture != "" {
			cp.Capture = regexp.MustCompile(capture)
		}
		k, err := NewCounter(cp)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := k.Read(o)
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
	o := Observation{Props: props}
	if rd := read("build_info", "", o); rd.Text != "b11669-Debian" || rd.Absent {
		t.Errorf("whole build_info: %+v", rd)
	}
	if rd := read("build_info", `^(b[0-9]+)`, o); rd.Text != "b11669" {
		t.Errorf("captured: %+v", rd)
	}
	if rd := read("build_info", `^b([0-9]+)`, o); rd.Text != "11669" || rd.Value != 11669 {
		t.Errorf("captured as a number: %+v", rd)
	}
	if rd := read("total_slots", "", o); rd.Text != "4" || rd.Value != 4 {
		t.Errorf("a number: %+v", rd)
	}
	if rd := read("no_such_field", "", o); !rd.Absent {
		t.Errorf("a missing field: %+v", rd)
	}
	if rd := read("build_info", `^(v[0-9]+)`, o); !rd.Absent || rd.Note == "" {
		t.Errorf("a capture that matches nothing: %+v", rd)
	}
	// The version source reads the engine's version output.
	k, _ := NewCounter(scenarios.CounterPolicy{Name: "v", Kind: schema.SourceVersion, Expr: "output", Capture: regexp.MustCompile(`build (\d+)`)})
	if rd, err := k.Read(Observation{Version: "version: 0.7.0 (build 11669, commit Debian)"}); err != nil || rd.Value != 11669 {
		t.Errorf("version: %+v %v", rd, err)
	}
}

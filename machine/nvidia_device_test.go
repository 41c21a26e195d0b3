package machine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The outputs of one real run of `decodebench machine` on an idle H200 and
// of the queries it makes (testdata/nvidia-h200-device/README.md).
const h200Device = "testdata/nvidia-h200-device/"

func TestH200DeviceQueries(t *testing.T) {
	for _, f := range []string{"nvidia-smi-query.csv", "nvidia-smi-query-throttle.csv"} {
		gpus, err := ParseNvidiaConditions(readFile(t, h200Device+f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(gpus) != 1 {
			t.Fatalf("%s: %d GPUs", f, len(gpus))
		}
		g := gpus[0]
		if g.Name != "NVIDIA H200" || *g.SMClockMHz != 345 || *g.MemClockMHz != 3201 || *g.MaxSMClockMHz != 1980 ||
			*g.TempC != 38 || *g.PowerW < 70 || *g.PowerW > 100 || *g.PowerLimitW != 700 || *g.UtilPct != 0 ||
			*g.MemUsedMiB != 0 || *g.MemTotalMiB != 143771 || g.PState != "P0" || *g.ReasonsMask != 1 ||
			!reflect.DeepEqual(g.Reasons, []string{"gpu_idle"}) {
			t.Errorf("%s: %s", f, dumpGPUs(gpus))
		}
		if w := (Conditions{GPUs: gpus}).Warnings(); len(w) != 0 {
			t.Errorf("%s: idle GPU warns %v", f, w)
		}
	}
	ps, err := parseNvidiaApps(readFile(t, h200Device+"apps-noheader.csv"))
	if err != nil || len(ps) != 0 {
		t.Errorf("no GPU processes expected: %v %v", ps, err)
	}
}

// TestH200DeviceMachineJSON reads what `decodebench machine --json` printed
// there back into the types that wrote it.
func TestH200DeviceMachineJSON(t *testing.T) {
	var rep struct {
		Identity  schema.MachineInfo `json:"identity"`
		Telemetry Telemetry          `json:"telemetry"`
		Snapshot  Snapshot           `json:"snapshot"`
		Warnings  []Warning          `json:"warnings"`
	}
	dec := json.NewDecoder(bytes.NewReader(readFile(t, h200Device+"machine.json")))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Identity.Slug != "h200" || len(rep.Identity.GPUs) != 1 || rep.Identity.Threads != 16 {
		t.Errorf("identity %+v", rep.Identity)
	}
	gpus := rep.Snapshot.Conditions.GPUs
	if len(gpus) != 1 || gpus[0].Name != "NVIDIA H200" || *gpus[0].SMClockMHz != 345 || !reflect.DeepEqual(gpus[0].Reasons, []string{"gpu_idle"}) {
		t.Errorf("conditions %+v", rep.Snapshot.Conditions)
	}
	if rep.Snapshot.Load == nil || rep.Snapshot.Load.CPUBusyPct > 5 || len(rep.Warnings) != 0 || len(rep.Snapshot.GPUProcesses) != 0 {
		t.Errorf("idle machine: load %+v warnings %v processes %v", rep.Snapshot.Load, rep.Warnings, rep.Snapshot.GPUProcesses)
	}
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, h200Device+"machine-watch.jsonl")))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		if n == 1 {
			continue // the report
		}
		var s Snapshot
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || len(s.Conditions.GPUs) != 1 {
			t.Errorf("watch line %d: %v %+v", n, err, s)
		}
	}
	if n < 2 {
		t.Errorf("watch printed %d lines", n)
	}
}

package harness

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Energy is wanted, and so sampled, when the scenario names it anywhere:
// as its primary or among its metrics.
func TestWantsEnergy(t *testing.T) {
	for _, tc := range []struct {
		p    scenarios.Policy
		want bool
	}{
		{scenarios.Policy{Primary: schema.DecodeTokS}, false},
		{scenarios.Policy{Primary: schema.EnergyJPerTok}, true},
		{scenarios.Policy{Primary: schema.DecodeTokS, Metrics: []scenarios.MetricPolicy{{Name: schema.DecodeTokS}, {Name: schema.EnergyJ}}}, true},
		{scenarios.Policy{Primary: schema.DecodeTokS, Metrics: []scenarios.MetricPolicy{{Name: schema.DecodeTokS}, {Name: schema.TTFTms}}}, false},
	} {
		if got := wantsEnergy(tc.p); got != tc.want {
			t.Errorf("%+v: wantsEnergy %v", tc.p, got)
		}
	}
}

// The window's energy comes from the power sampled through it, else from
// RAPL; otherwise it says every source's reason.
func TestWindowEnergySources(t *testing.T) {
	sampled := &schema.Energy{Source: schema.EnergyPowermetrics, Joules: 3, Coverage: []string{"cpu", "gpu"}}
	zones := []machine.RAPLZone{{Name: "package-0", Dir: "intel-rapl:0", EnergyUJ: 1e6, MaxUJ: 1e9}}
	later := []machine.RAPLZone{{Name: "package-0", Dir: "intel-rapl:0", EnergyUJ: 3e6, MaxUJ: 1e9}}
	if e := windowEnergy(sampled, zones, later, nil, time.Second); e != sampled {
		t.Errorf("sampled energy not taken: %+v", e)
	}
	refused := &schema.Energy{Unavailable: "powermetrics: decodebench is not root and `sudo -n` refused to run powermetrics without a password"}
	if e := windowEnergy(refused, zones, later, nil, time.Second); e.Source != schema.EnergyRAPL || e.Joules != 2 {
		t.Errorf("RAPL not taken: %+v", e)
	}
	e := windowEnergy(refused, nil, nil, errors.New("RAPL counters unreadable"), time.Second)
	if !strings.HasPrefix(e.Unavailable, refused.Unavailable) || (runtime.GOOS != "darwin" && !strings.HasSuffix(e.Unavailable, "; RAPL: RAPL counters unreadable")) {
		t.Errorf("why: %q", e.Unavailable)
	}
	if e := windowEnergy(nil, nil, nil, nil, time.Second); e.Unavailable != "no energy source on this host" {
		t.Errorf("why: %q", e.Unavailable)
	}
}

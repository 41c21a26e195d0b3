package machine

import (
	"regexp"
	"strconv"
	"strings"
)

// The Mac's power and pressure as pmset and memory_pressure report them:
// the power source and mode, thermal levels, memory pressure.

// battery is what parsePmsetBatt reads.
type battery struct {
	Source  PowerSource
	Percent *int
	State   string
}

var battRE = regexp.MustCompile(`(\d+)%;\s*([^;]+)`)

// parsePmsetBatt reads `pmset -g batt`:
//
//	Now drawing from 'Battery Power'
//	 -InternalBattery-0 (id=22806627)	78%; discharging; 5:05 remaining present: true
func parsePmsetBatt(out []byte) battery {
	var b battery
	for _, line := range strings.Split(string(out), "\n") {
		if _, src, ok := strings.Cut(line, "Now drawing from '"); ok {
			src, _, _ = strings.Cut(src, "'")
			switch src {
			case "AC Power":
				b.Source = PowerAC
			case "Battery Power":
				b.Source = PowerBattery
			}
			continue
		}
		if strings.Contains(line, "InternalBattery") {
			if m := battRE.FindStringSubmatch(line); m != nil {
				p, _ := strconv.Atoi(m[1])
				b.Percent = &p
				b.State = strings.TrimSpace(m[2])
				// "AC attached" is followed by "; not charging".
				if b.State == "AC attached" {
					if _, rest, ok := strings.Cut(line, "AC attached;"); ok {
						rest, _, _ = strings.Cut(rest, ";")
						b.State = "AC attached; " + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "present: true"))
					}
				}
			}
		}
	}
	return b
}

// parseLowPowerMode reads the "lowpowermode N" line of `pmset -g`, or on
// macOS versions that print it instead "powermode N" (0 automatic, 1 low
// power, 2 high power). nil when neither line is there.
func parseLowPowerMode(out []byte) *bool {
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if f[0] == "lowpowermode" || f[0] == "powermode" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				continue
			}
			on := n == 1
			return &on
		}
	}
	return nil
}

// macOS energy modes, as pmset's powermode numbers them.
const (
	PowerModeAutomatic = "automatic"
	PowerModeLow       = "low power"
	PowerModeHigh      = "high power"
)

// parsePowerMode reads macOS's energy mode from `pmset -g`: "powermode N"
// (0 Automatic, 1 Low Power, 2 High Power) where macOS prints it, and
// "lowpowermode 1" as Low Power; "" otherwise ("lowpowermode 0" leaves
// Automatic and High Power apart unknown).
func parsePowerMode(out []byte) string {
	mode := ""
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch n, err := strconv.Atoi(f[1]); {
		case err != nil:
		case f[0] == "powermode":
			return [...]string{PowerModeAutomatic, PowerModeLow, PowerModeHigh, ""}[min(max(n, 0), 3)]
		case f[0] == "lowpowermode" && n == 1:
			mode = PowerModeLow
		}
	}
	return mode
}

// therm is what parsePmsetTherm reads.
type therm struct {
	Thermal, Performance, SpeedLimit *int
}

var levelRE = regexp.MustCompile(`(?i)(thermal|performance) warning level[^0-9]*(\d+)`)

// parsePmsetTherm reads `pmset -g therm`. "Note: No thermal warning level
// has been recorded" is level 0; a recorded level is the number on its
// line. CPU_Speed_Limit is read from the "CPU Power notify" block.
func parsePmsetTherm(out []byte) therm {
	var t therm
	zero := func() *int { z := 0; return &z }
	for _, line := range strings.Split(string(out), "\n") {
		l := strings.TrimSpace(line)
		lower := strings.ToLower(l)
		switch {
		case strings.Contains(lower, "no thermal warning level"):
			t.Thermal = zero()
		case strings.Contains(lower, "no performance warning level"):
			t.Performance = zero()
		case strings.HasPrefix(l, "CPU_Speed_Limit"):
			if _, v, ok := strings.Cut(l, "="); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					t.SpeedLimit = &n
				}
			}
		default:
			if m := levelRE.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[2])
				if strings.EqualFold(m[1], "thermal") {
					t.Thermal = &n
				} else {
					t.Performance = &n
				}
			}
		}
	}
	return t
}

// parseMemoryPressure reads "System-wide memory free percentage: 88%" from
// `memory_pressure`.
func parseMemoryPressure(out []byte) (int, bool) {
	for _, line := range strings.Split(string(out), "\n") {
		if _, v, ok := strings.Cut(line, "System-wide memory free percentage:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "%"))
			return n, err == nil
		}
	}
	return 0, false
}

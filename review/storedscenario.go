package review

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

// parsedScenario is a stored scenario as check reads it: what Parse
// returned for its bytes.
type parsedScenario struct {
	s   *scenarios.Scenario
	err error
}

// maxScenarios bounds the stored scenarios kept in memory: a fleet's
// records share a few (one per feature and its overrides).
const maxScenarios = 256

var (
	scenariosMu sync.Mutex
	parsed      = map[[32]byte]parsedScenario{}
)

// storedScenario parses a record's stored scenario offline, as it ran
// (the record's prompt and overrides), once per content: offline, Parse
// reads nothing but its arguments, and the data folder it is given only
// names where a prompt file would be (which offline it does not read), so
// the same bytes, prompt and overrides give the same scenario whatever
// record they come from. The scenario returned is shared: check only
// reads its Policy and Hash.
func storedScenario(dataDir string, src []byte, prompt string, set []string) (*scenarios.Scenario, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%d\x00%d\x00%t\x00", len(src), len(prompt), len(set), set == nil)
	h.Write(src)
	h.Write([]byte(prompt))
	for _, s := range set {
		fmt.Fprintf(h, "\x00%d\x00%s", len(s), s)
	}
	var k [32]byte
	h.Sum(k[:0])
	scenariosMu.Lock()
	p, ok := parsed[k]
	scenariosMu.Unlock()
	if ok {
		return p.s, p.err
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, src, scenarios.Options{Offline: true, PromptText: prompt, Set: set})
	scenariosMu.Lock()
	if len(parsed) < maxScenarios {
		parsed[k] = parsedScenario{s, err}
	}
	scenariosMu.Unlock()
	return s, err
}

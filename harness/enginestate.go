package harness

import (
	"fmt"
	"slices"

	"github.com/decodebench/decodebench/schema"
)

// What the campaign state (campaign.json) keeps of each arm's engine: a
// resume refuses when its files or models hash otherwise, and check holds
// the record's engines to it.

// armHashes is each arm's binary hash (and its wrapped binary's), for the
// campaign state: a resume refuses when any of them changed.
func (es *engineSet) armHashes() map[string]string {
	out := map[string]string{}
	for arm, i := range es.byArm {
		out[arm] = hashKey(es.ids[i])
	}
	return out
}

// armModels is each arm's model files and hashes, for the campaign state:
// a resume refuses when any of them changed.
func (es *engineSet) armModels() map[string]string {
	out := map[string]string{}
	for arm, i := range es.byArm {
		out[arm] = es.ids[i].ModelKey()
	}
	return out
}

// armIdentity is each arm's engine identity, for the campaign state, which
// check holds the record's to.
func (es *engineSet) armIdentity() map[string]schema.EngineIdentity {
	out := map[string]schema.EngineIdentity{}
	for arm, i := range es.byArm {
		out[arm] = es.ids[i].Identity()
	}
	return out
}

// hashKey is what an engine's files hash to (schema.EngineInfo.HashKey).
func hashKey(id schema.EngineInfo) string { return id.HashKey() }

// changedSince says, for each arm whose engine's files hash to another
// key than the state's, what it ran then and what it is now: a path and a
// hash each, or why there is none (never an empty one).
func (es *engineSet) changedSince(st state) []string {
	var out []string
	for arm, h := range st.ArmEngines {
		i, ok := es.byArm[arm]
		if ok && hashKey(es.ids[i]) != h {
			out = append(out, fmt.Sprintf("arm %s ran sha256 %s, and %s", arm, orNone(abbrevHash(h)), engineNow(es.ids[i])))
		}
	}
	for arm, m := range st.ArmModels {
		i, ok := es.byArm[arm]
		if ok && es.ids[i].ModelKey() != m {
			out = append(out, fmt.Sprintf("arm %s ran the models %s, and now %s", arm, orNone(m), orNone(es.ids[i].ModelKey())))
		}
	}
	slices.Sort(out)
	return out
}

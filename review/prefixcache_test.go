package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// diff names a change of an arm's prefix-cache state and of the measured
// requests per start between records that both store them, and says
// nothing of them against a record from before, which stores neither.
func TestConditionsPrefixCacheAndRequests(t *testing.T) {
	rec := func(requests int, states ...schema.PrefixCache) *schema.Record {
		r := &schema.Record{Verdict: schema.Valid, Method: schema.Method{Requests: requests}}
		for i, st := range states {
			r.Method.PrefixCache = append(r.Method.PrefixCache, schema.ArmPrefixCache{Arm: []string{"classic", "draft"}[i], State: st})
		}
		return r
	}
	find := func(a, b *schema.Record) map[string]Condition {
		out := map[string]Condition{}
		for _, c := range conditions("a.md", a, "b.md", b) {
			out[c.What] = c
		}
		return out
	}
	dis, dst := schema.PrefixCacheDisabled, schema.PrefixCacheDistinct
	got := find(rec(1, dis, dis), rec(2, dis, dst))
	if c := got["prefix cache"]; c.Old != "classic disabled, draft disabled" || c.New != "classic disabled, draft distinct-prefix" {
		t.Errorf("prefix cache condition %+v", c)
	}
	if c := got["measured requests per engine start"]; c.Old != "1" || c.New != "2" {
		t.Errorf("requests condition %+v", c)
	}
	got = find(rec(0), rec(2, dis, dst))
	if _, ok := got["prefix cache"]; ok {
		t.Error("a record from before differs in its prefix cache")
	}
	if _, ok := got["measured requests per engine start"]; ok {
		t.Error("a record from before differs in its requests")
	}
	if got := find(rec(1, dis, dis), rec(1, dis, dis)); len(got) != 0 {
		t.Errorf("same conditions: %+v", got)
	}
}

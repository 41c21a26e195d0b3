package zzprof

import (
	"testing"

	"github.com/decodebench/decodebench/review"
)

func BenchmarkIndexWarm(b *testing.B) {
	c := &review.CheckCache{Dir: "/tmp/fleet-cache3", Identity: "x"}
	review.Index("/tmp/fleet-gen", c)
	for b.Loop() {
		review.Index("/tmp/fleet-gen", c)
	}
}

package sim

import (
	"bytes"
	"context"
	"testing"
)

// A sim that keeps only the newest milestones serves the very same chain as one that
// keeps all, including a milestone it had forgotten (asked again after the front moved),
// while holding no more records than Retain.
func TestRetainServesTheSameChainBounded(t *testing.T) {
	const tip, retain = 150, 20
	want := milestones(t, New(Options{Seed: 5, Tip: tip}), tip)
	s := New(Options{Seed: 5, Tip: tip, Retain: retain})
	got := milestones(t, s, tip)
	if n := len(s.gen.records); n > retain {
		t.Fatalf("kept %d records, want at most %d", n, retain)
	}
	for i := range want {
		if !bytes.Equal(fingerprint(want[i]), fingerprint(got[i])) {
			t.Fatalf("milestone %d differs with Retain %d", want[i].Index, retain)
		}
	}
	again, err := s.Confirmed(context.Background(), 3) // forgotten: generated again
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fingerprint(want[2]), fingerprint(again)) {
		t.Fatal("milestone 3 asked again after it was forgotten differs")
	}
	if _, err := s.Truth(tip); err == nil {
		t.Fatal("Truth with Retain set: want an error, not a partial truth")
	}
}

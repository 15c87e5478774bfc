package store

import (
	"testing"
	"time"
)

// TestMilestoneTimesBounded: the kept times never exceed milestoneTimesKept, and the
// newest is always kept.
func TestMilestoneTimesBounded(t *testing.T) {
	var m milestoneTimes
	for i := range uint32(3 * milestoneTimesKept) {
		m.put(i, time.Unix(int64(i), 0))
		if _, ok := m.get(i); !ok {
			t.Fatalf("%d not kept right after put", i)
		}
	}
	if len(m.at) != milestoneTimesKept {
		t.Fatalf("%d kept, want %d", len(m.at), milestoneTimesKept)
	}
}

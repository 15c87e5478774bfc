package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// TestMilestoneTime: a milestone not indexed yet is ErrNotFound, and not remembered so:
// once written, its time is read; from then on the time is served from memory, as a
// milestone's time never changes (a rewrite of the row is not read again).
func TestMilestoneTime(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if _, err := st.MilestoneTime(ctx, 7); !errors.Is(err, ErrNotFound) {
		t.Fatalf("milestone 7 before it is written: %v, want ErrNotFound", err)
	}
	milestoneRows(t, st, []uint32{7})
	want := time.Unix(35, 0).UTC()
	if got, err := st.MilestoneTime(ctx, 7); err != nil || !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("milestone 7: %v, %v; want %v", got, err, want)
	}
	var b builder
	b.add(cql.InsertMilestone, Timestamp(8, PhaseConfirmed), "", int32(7), "ms-7", int64(99), []byte{7})
	if err := st.Apply(ctx, b.Writes, 1); err != nil {
		t.Fatal(err)
	}
	if got, err := st.MilestoneTime(ctx, 7); err != nil || !got.Equal(want) {
		t.Fatalf("milestone 7 again: %v, %v; want the kept %v", got, err, want)
	}
}

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

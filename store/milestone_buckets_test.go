package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// milestoneRows writes the milestones rows of indexes (not their buckets), as an indexer
// before migration 000010 did: each milestone's row, and the message carrying it, set by
// the next milestone, for every index but the last.
func milestoneRows(t *testing.T, st *Store, indexes []uint32) {
	t.Helper()
	var b builder
	for i, index := range indexes {
		ts := Timestamp(index, PhaseConfirmed)
		b.add(cql.InsertMilestone, ts, "", int32(index), fmt.Sprintf("ms-%d", index), int64(index)*5, []byte{7})
		if i < len(indexes)-1 {
			b.add(cql.SetMilestoneMessage, Timestamp(index+1, PhaseConfirmed), "", fmt.Sprintf("msg-%d", index), int32(index))
		}
	}
	if err := st.Apply(context.Background(), b.Writes, 4); err != nil {
		t.Fatal(err)
	}
}

func indexesOf(ms []MilestoneRecord) []uint32 {
	var out []uint32
	for _, m := range ms {
		out = append(out, m.Index)
	}
	return out
}

// TestMilestoneBucketsFillAndList: a keyspace indexed before milestones_by_bucket has
// milestones that no bucket lists; FillMilestoneBuckets lists them once, and MilestoneList
// then answers a range across two buckets newest first, with the columns Milestone reads
// (a milestone whose row holds only its message ID, written by the next one first, is
// left out, as Milestone leaves it out).
func TestMilestoneBucketsFillAndList(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	milestoneRows(t, st, []uint32{997, 998, 999, 1000, 1001})
	var b builder // 1003 carries 1002's message, 1002 itself is not indexed
	b.add(cql.SetMilestoneMessage, Timestamp(1003, PhaseConfirmed), "", "msg-1002", int32(1002))
	if err := st.Apply(ctx, b.Writes, 1); err != nil {
		t.Fatal(err)
	}
	if ready, err := st.MilestoneBucketsReady(ctx); ready || err != nil {
		t.Fatalf("ready %v (%v) before any fill", ready, err)
	}
	if got, err := st.MilestoneList(ctx, 990, 1010); err != nil || len(got) != 0 {
		t.Fatalf("list before the fill: %v, %v; want nothing listed", got, err)
	}
	if n, err := st.FillMilestoneBuckets(ctx, "test"); err != nil || n != 6 {
		t.Fatalf("fill: %d rows, %v; want 6 (5 milestones and a message-only row)", n, err)
	}
	if ready, err := st.MilestoneBucketsReady(ctx); !ready || err != nil {
		t.Fatalf("ready %v (%v) after the fill", ready, err)
	}
	got, err := st.MilestoneList(ctx, 998, 1002)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{1001, 1000, 999, 998}; !slices.Equal(indexesOf(got), want) {
		t.Fatalf("list 998..1002: %v, want %v", indexesOf(got), want)
	}
	for _, m := range got {
		one, err := st.Milestone(ctx, m.Index)
		if err != nil {
			t.Fatal(err)
		}
		one.Payload = nil
		if m.MilestoneID != one.MilestoneID || m.MessageID != one.MessageID || m.Timestamp != one.Timestamp {
			t.Errorf("listed %+v, Milestone reads %+v", m, one)
		}
	}
	if n, err := st.FillMilestoneBuckets(ctx, "test"); err != nil || n != 0 {
		t.Fatalf("second fill: %d rows, %v; want none (the keyspace is listed)", n, err)
	}
}

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

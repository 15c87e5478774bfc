package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// coverageWant is what a keyspace's coverage must say.
type coverageWant struct {
	complete     bool
	since, index uint32
	gaps         int
	parts        []int32
}

func checkCoverage(t *testing.T, step string, c LedgerCoverage, want coverageWant) {
	t.Helper()
	if c.Complete != want.complete || c.Since != want.since || c.Index != want.index || c.Gaps != want.gaps ||
		!slices.Equal(c.Partitions, want.parts) {
		t.Errorf("%s: coverage complete %t since %d index %d gaps %d partitions %v, want %+v", step,
			c.Complete, c.Since, c.Index, c.Gaps, c.Partitions, want)
	}
}

// The advertised ledger index is the end of the contiguous synced run from the first
// indexed milestone, or from a bootstrap's L; a gap holds it back however much is synced
// past it, and every gap is counted. One keyspace goes through the cases in turn: sync
// rows 10-20 and 22-30; a bootstrap at 9 recorded; 21 synced; 10-11 unsynced; all unsynced.
func TestLedgerCoverageFollowsTheContiguousRun(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if _, err := st.LedgerCoverage(ctx); !errors.Is(err, ErrNothingSynced) {
		t.Fatalf("empty keyspace: %v, want ErrNothingSynced", err)
	}
	write := func(from, to uint32) {
		t.Helper()
		for i := from; i <= to; i++ {
			if err := st.WriteSync(ctx, i, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	unsync := func(from, to uint32) {
		t.Helper()
		for i := from; i <= to; i++ {
			if err := st.Unsync(ctx, i); err != nil {
				t.Fatal(err)
			}
		}
	}
	step := func(name string, want coverageWant) LedgerCoverage {
		t.Helper()
		st.bootstrap.Store(nil) // each step reads the record afresh
		if err := st.FlushSyncSummary(ctx); err != nil {
			t.Fatal(err)
		}
		c, err := st.LedgerCoverage(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkCoverage(t, name, c, want)
		return c
	}
	write(10, 20)
	write(22, 30)
	step("sync 10-20, 22-30", coverageWant{since: 10, index: 20, gaps: 1, parts: []int32{1, 2}})

	boot := LedgerBootstrap{Index: 9, MilestoneID: "0x09", MilestoneTimestamp: 1700000009, Kind: "full", OldestBooked: 3}
	if err := st.RecordLedgerBootstrap(ctx, boot, "test"); err != nil {
		t.Fatal(err)
	}
	step("bootstrap 9, sync 10-20, 22-30", coverageWant{complete: true, since: 9, index: 20, gaps: 1, parts: []int32{0, 1, 2}})
	write(21, 21)
	c := step("bootstrap 9, sync 10-30", coverageWant{complete: true, since: 9, index: 30, parts: []int32{0, 1, 2, 3}})
	if c.Bootstrap == nil || *c.Bootstrap != boot || c.Oldest != 10 || c.Newest != 30 {
		t.Errorf("bootstrap 9, sync 10-30: record %+v, synced %d-%d", c.Bootstrap, c.Oldest, c.Newest)
	}
	unsync(10, 11)
	step("bootstrap 9, sync 12-30", coverageWant{complete: true, since: 9, index: 9, gaps: 1, parts: []int32{0}})
	unsync(12, 30)
	step("bootstrap 9, nothing synced", coverageWant{complete: true, since: 9, index: 9, parts: []int32{0}})

	li, err := st.LedgerIndex(ctx)
	if err != nil || li.Index != 9 || li.Timestamp != 1700000009 || li.MilestoneID != "0x09" {
		t.Errorf("ledger index at the bootstrap: %+v, %v; want the record's milestone", li, err)
	}
}

// A bootstrap recorded after the record was read shows once the read is bootstrapTTL
// old, never before: the cache only ever understates.
func TestLedgerCoverageCachesTheBootstrapRecord(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if err := st.WriteSync(ctx, 12, 1, 0); err != nil {
		t.Fatal(err)
	}
	c, err := st.LedgerCoverage(ctx)
	if err != nil || c.Complete {
		t.Fatalf("before the bootstrap: %+v, %v", c, err)
	}
	// Another process (a bootstrap) records it: this store goes on serving its cached read.
	other := New(st.s, 10)
	if err := other.RecordLedgerBootstrap(ctx, LedgerBootstrap{Index: 11, OldestBooked: 1}, "test"); err != nil {
		t.Fatal(err)
	}
	if c, err = st.LedgerCoverage(ctx); err != nil || c.Complete {
		t.Fatalf("within the TTL: %+v, %v; want the cached read (partial)", c, err)
	}
	st.bootstrap.Store(&bootstrapRead{at: time.Now().Add(-bootstrapTTL)})
	c, err = st.LedgerCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, "past the TTL", c, coverageWant{complete: true, since: 11, index: 12, parts: []int32{0, 1}})
}

// The store that records a bootstrap sees it at once, whatever it had cached.
func TestRecordingABootstrapDropsTheCachedRead(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if err := st.WriteSync(ctx, 12, 1, 0); err != nil {
		t.Fatal(err)
	}
	if c, err := st.LedgerCoverage(ctx); err != nil || c.Complete {
		t.Fatalf("before the bootstrap: %+v, %v", c, err)
	}
	if err := st.RecordLedgerBootstrap(ctx, LedgerBootstrap{Index: 11, OldestBooked: 1}, "test"); err != nil {
		t.Fatal(err)
	}
	c, err := st.LedgerCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, "after recording", c, coverageWant{complete: true, since: 11, index: 12, parts: []int32{0, 1}})
}

// A truncated summary no longer holds the first synced range: without a bootstrap the
// first indexed milestone alone is advertised, with a bootstrap the run from L as far as
// the kept ranges show it.
func TestCoverageOfTruncatedSummary(t *testing.T) {
	v := SyncStatus{Oldest: 5, Newest: 60, Synced: []Range{{40, 45}, {47, 60}}, Gaps: []Range{{46, 46}}, Truncated: true}
	c, err := coverageOf(v, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, "partial", c, coverageWant{since: 5, index: 5, gaps: 2, parts: []int32{0}})
	c, _ = coverageOf(v, &LedgerBootstrap{Index: 41, OldestBooked: 12}, 10)
	checkCoverage(t, "bootstrap in the kept ranges", c, coverageWant{complete: true, since: 41, index: 45, gaps: 1,
		parts: []int32{0, 1, 2, 3, 4}})
	c, _ = coverageOf(v, &LedgerBootstrap{Index: 20, OldestBooked: 12}, 10)
	checkCoverage(t, "bootstrap below the kept ranges", c, coverageWant{complete: true, since: 20, index: 20, gaps: 2,
		parts: []int32{0, 1, 2}})
}

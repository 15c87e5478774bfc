package store

import (
	"context"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"
)

// LedgerCoverage is what the ledger-state tables (unspent_outputs and its by-address
// twin, address_ledger_updates) hold, and the ledger index the API advertises over them
// (docs/schema.md, "Ledger state: what it covers").
//
// Complete: a snapshot bootstrap wrote the whole unspent set at Since (its ledger index
// L), so the tables hold every unspent output. Otherwise they hold only the outputs
// created since Since, the first indexed milestone.
//
// Index is the end of the contiguous run of synced milestones that starts at Since: a
// milestone past a gap, or one whose sync row is missing (half-written), is not applied
// to the ledger that is advertised, however many milestones after it are synced.
type LedgerCoverage struct {
	Complete bool
	Since    uint32
	Index    uint32
	// Gaps counts the holes in the covered milestones (the bootstrap's [0, L] and the synced
	// ranges), also those past Index: a lower bound when the summary is truncated.
	Gaps int
	// Oldest and Newest are the oldest and newest synced milestones (0 when none is).
	Oldest, Newest uint32
	// Partitions are the ms_range_id partitions that may hold ledger rows booked up to
	// Index, ascending: those of the synced ranges and, for a bootstrap, every one from
	// RangeID(OldestBooked) to RangeID(L), which no sync row may name.
	Partitions []int32
	// Bootstrap is the keyspace's bootstrap record; nil without one.
	Bootstrap *LedgerBootstrap
	// Reason says why a read narrowed a coverage to not Complete (an earlier ledger
	// index, a spent twin lacking spends); "" when it did not.
	Reason string
}

// Why a coverage is not complete, as its Reason (and the API's coverage.reason) says.

// NoBootstrapReason: the keyspace was not bootstrapped from a snapshot.
func NoBootstrapReason(since uint32) string {
	return fmt.Sprintf("no snapshot bootstrap: the ledger tables hold only the outputs created since milestone %d", since)
}

// BeforeSinceReason: a read at an earlier ledger index than the bootstrap's milestone.
func BeforeSinceReason(at, since uint32) string {
	return fmt.Sprintf("ledger index %d is before the bootstrap's milestone %d: outputs spent before it are missing",
		at, since)
}

// FirstChange is the first milestone whose changes the keyspace holds: the one after a
// snapshot bootstrap's (the snapshot is the ledger after its milestone's spends, not what
// the milestone changed), else the first indexed one (at least 1).
func (c LedgerCoverage) FirstChange() uint32 {
	if c.Bootstrap != nil {
		return c.Since + 1
	}
	return max(c.Since, 1)
}

// ChangesBeforeReason: a list of ledger changes asked from a time before the first
// milestone whose changes are indexed.
func ChangesBeforeReason(first uint32) string {
	return fmt.Sprintf("the changes of milestones before %d are not indexed: the list starts at %d", first, first)
}

// SpentMissingReason: the spent twin lacks spends (a keyspace indexed before it).
func SpentMissingReason(since uint32) string {
	return fmt.Sprintf("the spent outputs table lacks the spends of milestone %d on (indexed before it; "+
		"a resync fills it): outputs spent since are missing", since)
}

// LedgerCoverage reads the sync summary (SyncView) and the bootstrap record (cached,
// see cachedBootstrap) at once; ErrNothingSynced when nothing is synced and the keyspace
// was not bootstrapped.
func (st *Store) LedgerCoverage(ctx context.Context) (LedgerCoverage, error) {
	var (
		view SyncStatus
		boot *LedgerBootstrap
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { view, err = st.SyncView(gctx); return err })
	g.Go(func() (err error) { boot, err = st.cachedBootstrap(gctx); return err })
	if err := g.Wait(); err != nil {
		return LedgerCoverage{}, err
	}
	return coverageOf(view, boot, st.ChunkSize)
}

// coverageOf derives the coverage from the synced ranges and the bootstrap record.
func coverageOf(v SyncStatus, boot *LedgerBootstrap, chunk uint32) (LedgerCoverage, error) {
	if boot == nil {
		return partialCoverage(v, chunk)
	}
	// The bootstrap stands for every milestone up to L: synced ranges at or below L merge
	// into it, and the run from L is the first covered range.
	covered := normalize(append([]Range{{0, boot.Index}}, v.Synced...))
	c := LedgerCoverage{Complete: true, Since: boot.Index, Index: covered[0].To, Gaps: len(covered) - 1,
		Oldest: v.Oldest, Newest: v.Newest, Bootstrap: boot}
	c.Partitions = mergeParts(partitionsBetween(RangeID(boot.OldestBooked, chunk), RangeID(c.Index, chunk)),
		syncedPartitions(v, c.Index, chunk))
	return c, nil
}

// partialCoverage is the coverage without a bootstrap: from the first indexed milestone
// to the end of its synced range. A truncated summary no longer holds that range, so
// its end is unknown: the first indexed milestone alone is advertised.
func partialCoverage(v SyncStatus, chunk uint32) (LedgerCoverage, error) {
	if len(v.Synced) == 0 {
		return LedgerCoverage{}, ErrNothingSynced
	}
	c := LedgerCoverage{Since: v.Oldest, Index: v.Synced[0].To, Gaps: len(v.Gaps), Oldest: v.Oldest,
		Newest: v.Newest}
	if v.Truncated {
		c.Index, c.Gaps = v.Oldest, len(v.Gaps)+1
	}
	c.Partitions = syncedPartitions(v, c.Index, chunk)
	return c, nil
}

// syncedPartitions are the partitions of the synced milestones up to index; with a
// truncated summary every partition from the oldest synced one (a superset costs an
// empty read each).
func syncedPartitions(v SyncStatus, index, chunk uint32) []int32 {
	if len(v.Synced) == 0 {
		return nil
	}
	top := RangeID(index, chunk)
	if v.Truncated {
		return partitionsBetween(RangeID(v.Oldest, chunk), top)
	}
	var out []int32
	for _, r := range v.Synced {
		for p := RangeID(r.From, chunk); p <= min(RangeID(r.To, chunk), top); p++ {
			out = append(out, p)
		}
	}
	return mergeParts(out)
}

// partitionsBetween lists the partitions [lo, hi].
func partitionsBetween(lo, hi int32) []int32 {
	var out []int32
	for p := lo; p <= hi; p++ {
		out = append(out, p)
	}
	return out
}

// mergeParts is the sorted union of partition lists.
func mergeParts(lists ...[]int32) []int32 {
	out := slices.Concat(lists...)
	slices.Sort(out)
	return slices.Compact(out)
}

// LedgerIndex is the ledger state's position: the advertised ledger index (see
// LedgerCoverage), its milestone's ID and timestamp (unix seconds, the time TIP-18's
// time conditions are judged at), and the coverage it was derived from.
type LedgerIndex struct {
	Index       uint32
	Timestamp   int64
	MilestoneID string
	Coverage    LedgerCoverage
}

// LedgerIndex reads the coverage and the ledger index's milestone: the bootstrap
// record's when the index is its L (a bootstrap writes no milestone row), else the
// milestones row. ErrNothingSynced when nothing is synced and nothing bootstrapped.
func (st *Store) LedgerIndex(ctx context.Context) (LedgerIndex, error) {
	c, err := st.LedgerCoverage(ctx)
	if err != nil {
		return LedgerIndex{}, err
	}
	li, err := st.LedgerAt(ctx, c, c.Index)
	if err != nil {
		return LedgerIndex{}, fmt.Errorf("milestone %d of the ledger index: %w", c.Index, err)
	}
	return li, nil
}

// LedgerAt is the ledger of coverage c at index: that milestone's, the bootstrap
// record's when index is its L (a bootstrap writes no milestone row), else the
// milestones row (ErrNotFound for a milestone not indexed).
func (st *Store) LedgerAt(ctx context.Context, c LedgerCoverage, index uint32) (LedgerIndex, error) {
	if b := c.Bootstrap; b != nil && index == b.Index {
		return LedgerIndex{Index: index, Timestamp: int64(b.MilestoneTimestamp), MilestoneID: b.MilestoneID,
			Coverage: c}, nil
	}
	m, err := st.Milestone(ctx, index)
	if err != nil {
		return LedgerIndex{}, err
	}
	return LedgerIndex{Index: index, Timestamp: m.Timestamp, MilestoneID: m.MilestoneID, Coverage: c}, nil
}

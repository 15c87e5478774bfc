package snapshotexport

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// AdditionalDiffs is how many diffs at and below the target Hornet adds to a full file
// (its AdditionalMilestoneDiffRange): a node reads them only for protocol parameter
// updates they announce.
const AdditionalDiffs = 30

// lowestDiff is the lowest milestone whose diff the file holds: N + 1, or, past L, down
// to N - 29 as Hornet writes, but never L or below (the keyspace holds no ledger
// changes of those milestones: they came with the bootstrap's snapshot).
func (e *export) lowestDiff() uint32 {
	if e.n == e.l {
		return e.n + 1
	}
	return max(e.l+1, e.n-min(e.n, AdditionalDiffs-1))
}

// writeDiffs writes the diffs from X down to lowestDiff, one milestone at a time.
func (e *export) writeDiffs(ctx context.Context, wr *snapshot.Writer) error {
	for m := int64(e.x); m >= int64(e.lowestDiff()); m-- {
		d, err := e.diff(ctx, uint32(m))
		if err != nil {
			return fmt.Errorf("milestone %d's diff: %w", m, err)
		}
		if err := wr.WriteDiff(d); err != nil {
			return err
		}
	}
	return nil
}

// diff rebuilds milestone m's diff: its stored payload, the treasury output a receipt
// spent, and the outputs its ledger updates name (created, then consumed, each by
// output ID), each from its output-table row.
func (e *export) diff(ctx context.Context, m uint32) (*snapshot.Diff, error) {
	sm, err := readMilestone(ctx, e.st, m)
	if err != nil {
		return nil, err
	}
	d := &snapshot.Diff{Milestone: sm.mp, RawMilestone: sm.raw}
	if sm.mp.Receipt != nil {
		in := e.spentTreasury[m]
		d.Treasury = &in
	}
	ups, err := e.st.MilestoneUpdates(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("ledger updates: %w", err)
	}
	entries := make([]snapshot.Spent, len(ups))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.cfg.Reads)
	for i, u := range ups {
		g.Go(func() (err error) {
			entries[i], err = e.updated(gctx, m, u)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, u := range ups {
		if u.IsSpent {
			d.Consumed = append(d.Consumed, entries[i])
		} else {
			d.Created = append(d.Created, entries[i].Output)
		}
	}
	return d, nil
}

// updated reads the entry of an output milestone m created or consumed; a consumed one
// comes with the transaction that spent it, which its row must say m spent.
func (e *export) updated(ctx context.Context, m uint32, u store.MilestoneUpdate) (snapshot.Spent, error) {
	r, err := e.st.UpdatedRow(ctx, u, e.bootParts)
	if err != nil {
		return snapshot.Spent{}, fmt.Errorf("%w: %w", ErrLedgerRows, err)
	}
	o, err := entryOf(idOf(u), &r)
	if err != nil {
		return snapshot.Spent{}, err
	}
	if !u.IsSpent {
		if o.BookedIndex != m {
			return snapshot.Spent{}, fmt.Errorf("%w: output %s, created in milestone %d, has its row booked in %d", ErrLedgerRows,
				o.OutputID, m, o.BookedIndex)
		}
		return snapshot.Spent{Output: o}, nil
	}
	if r.SpentMilestoneIndex == nil || uint32(*r.SpentMilestoneIndex) != m || r.SpentBy == "" {
		return snapshot.Spent{}, fmt.Errorf("%w: output %s, consumed in milestone %d, has no spend of that milestone in its row",
			ErrLedgerRows, o.OutputID, m)
	}
	tx, err := chain.ParseTransactionID(r.SpentBy)
	if err != nil {
		return snapshot.Spent{}, fmt.Errorf("output %s: spent_by: %w", o.OutputID, err)
	}
	return snapshot.Spent{Output: o, SpentBy: tx}, nil
}

package bootstrap

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// earlier is what the keyspace holds of earlier bootstraps: the finished record, and the
// newest ledger index a bootstrap began to write.
type earlier struct {
	record store.LedgerBootstrap
	done   bool // a record exists
	begun  uint32
	began  bool
}

func readEarlier(ctx context.Context, st *store.Store) (earlier, error) {
	var e earlier
	var err error
	if e.record, e.done, err = st.LedgerBootstrap(ctx); err != nil {
		return e, err
	}
	e.begun, e.began, err = st.BootstrapBegun(ctx)
	return e, err
}

// checkEarlier decides what a bootstrap of the ledger at index may do in a keyspace an
// earlier bootstrap wrote to. The same index: go on (a finished one writes the same rows
// again, an unfinished one resumes). An unfinished one at another index: refused. A
// finished one at another index: a no-op when every milestone between the two is indexed
// (the keyspace's ledger already reaches past both), refused otherwise. Nothing earlier:
// go on.
func checkEarlier(ctx context.Context, st *store.Store, index uint32) (noop bool, err error) {
	e, err := readEarlier(ctx, st)
	if err != nil {
		return false, err
	}
	if e.began && (!e.done || e.begun > e.record.Index) {
		if e.begun == index {
			return false, nil
		}
		return false, refuse(ErrOtherBootstrap, "a bootstrap of the ledger at milestone %d began and did not finish; "+
			"this snapshot's ledger is at %d: run the bootstrap of %d again to finish it", e.begun, index, e.begun)
	}
	if !e.done || e.record.Index == index {
		return false, nil
	}
	from, to := min(e.record.Index, index)+1, max(e.record.Index, index)
	missing, err := unindexed(ctx, st, from, to)
	if err != nil {
		return false, err
	}
	if len(missing) > 0 {
		return false, refuse(ErrOtherBootstrap, "the keyspace holds the ledger bootstrapped at milestone %d, this snapshot's "+
			"is at %d, and %d of milestones %d-%d are not indexed (first: %d-%d); a bootstrap loads into a fresh keyspace, "+
			"or over one whose indexed milestones reach the snapshot's", e.record.Index, index, store.CountOf(missing), from, to,
			missing[0].From, missing[0].To)
	}
	return true, nil
}

// unindexed lists the milestones of [from, to] without a sync row. The sync summary may
// lag its writers, so what it shows missing is read again from the sync rows.
func unindexed(ctx context.Context, st *store.Store, from, to uint32) ([]store.Range, error) {
	gaps, _, err := st.GapsIn(ctx, from, to)
	if err != nil {
		return nil, fmt.Errorf("reading which milestones are indexed: %w", err)
	}
	var out []store.Range
	for _, g := range gaps {
		synced, err := st.Synced(ctx, g.From, g.To)
		if err != nil {
			return nil, fmt.Errorf("reading which milestones are indexed: %w", err)
		}
		out = append(out, store.Gaps(synced, g.From, g.To)...)
	}
	return out, nil
}

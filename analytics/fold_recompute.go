package analytics

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Recompute writes the analytics rows of milestones from..to again (their activity
// families and ledger deltas among them), each milestone read back from the store and
// its rows given their chain-order timestamps, as ingest wrote them, under the fold's
// lease (renewed as it goes). Before the first row, it records a refold from `from` in
// the fold's state, so the next Run folds the new deltas into the ledger families
// whatever happens in between: a crash after the rows and before the refold leaves
// the refold to the next fold. each is called after each milestone's rows; an error it
// returns stops the recompute.
func (f LedgerFold) Recompute(ctx context.Context, from, to uint32, each func(index uint32) error) error {
	if _, ok, err := f.Store.Network(ctx); err != nil || !ok {
		return cmp.Or(err, store.ErrNothingSynced)
	}
	fd, release, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := fd.recordRefold(ctx, max(from, fd.state.Base+1)); err != nil {
		return err
	}
	for i := from; i <= to; i++ {
		if err := fd.lease.keep(ctx); err != nil {
			return err
		}
		if err := recomputeMilestone(ctx, f.Store, i); err != nil {
			return err
		}
		if err := each(i); err != nil {
			return err
		}
	}
	return nil
}

// recomputeMilestone reads milestone i back and writes its analytics rows again.
func recomputeMilestone(ctx context.Context, st *store.Store, i uint32) error {
	cm, err := st.ConfirmedMilestone(ctx, i)
	if err != nil {
		return fmt.Errorf("reading milestone %d back: %w", i, err)
	}
	if err := st.Apply(ctx, Rows(cm, st), 8); err != nil {
		return fmt.Errorf("writing milestone %d's analytics rows: %w", i, err)
	}
	return nil
}

// FoldCheck compares a recount of the ledger at the fold's watermark with the figures
// the fold stored there: Differ names each figure ("<family>.<path>") that differs.
type FoldCheck struct {
	Index  uint32
	State  store.LedgerFamiliesState
	Count  LedgerCount
	Differ []string
}

// CheckFold recounts the ledger at the fold's watermark and compares.
func CheckFold(ctx context.Context, st *store.Store) (FoldCheck, error) {
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok {
		return FoldCheck{}, cmp.Or(err, fmt.Errorf("%w: the ledger families were never folded", store.ErrNotFound))
	}
	rec, ok, err := st.Protocol(ctx)
	if err != nil || !ok {
		return FoldCheck{}, cmp.Or(err, ErrNoProtocol)
	}
	fd := &folder{st: st, params: rec.Params, state: state}
	stored, err := fd.figuresAt(ctx, state.Watermark)
	if err != nil {
		return FoldCheck{}, err
	}
	c, err := RecountLedger(ctx, st, state.Watermark, rec.Params)
	if err != nil {
		return FoldCheck{}, err
	}
	return FoldCheck{Index: state.Watermark, State: state, Count: c, Differ: differing(stored, c.Figures)}, nil
}

// differing lists the keys whose values differ between a and b (a missing key is 0), sorted.
func differing(a, b map[string]int64) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k, v := range b {
		if _, seen := a[k]; !seen && v != 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

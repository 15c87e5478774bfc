package analytics

import (
	"cmp"
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// recountReads bounds the output reads of a recount in flight.
const recountReads = 32

// LedgerCount is a recount of the ledger families at one milestone.
type LedgerCount struct {
	Index    uint32
	Outputs  int
	Figures  map[string]int64 // "<family>.<path>", every figure of the five families
	Balances map[string]int64 // the owning addresses with a balance
}

// RecountLedger counts the ledger families of the unspent set at milestone m with the
// same per-output rule the milestones' deltas use: the outputs created at or before m
// that are unspent now, and those spent by a milestone after m (the consumed outputs of
// milestone_ledger_updates from m+1 to the newest synced milestone), each read by ID
// for its bytes. It reads the whole unspent set: a check of the fold, never a step of it.
// The synced milestones from m on must be contiguous; an output spent while the scan
// runs is found among the consumed ones, as the updates are read after the scan.
func RecountLedger(ctx context.Context, st *store.Store, m uint32, params chain.ProtocolParameters) (LedgerCount, error) {
	network, ok, err := st.Network(ctx)
	if err != nil || !ok {
		return LedgerCount{}, cmp.Or(err, store.ErrNothingSynced)
	}
	ids, err := unspentIDs(ctx, st, m)
	if err != nil {
		return LedgerCount{}, err
	}
	if err := addSpentAfter(ctx, st, m, ids); err != nil {
		return LedgerCount{}, err
	}
	outputs, err := readCreations(ctx, st, ids)
	if err != nil {
		return LedgerCount{}, err
	}
	c := LedgerCount{Index: m, Figures: zeroFigures(params.TokenSupply), Balances: map[string]int64{}}
	sums := store.LedgerDelta{Figures: c.Figures, Balances: c.Balances}
	for i := range outputs {
		if outputs[i].MilestoneIndex > m {
			continue // created after m
		}
		c.Outputs++
		addOutput(sums, &outputs[i], params.RentStructure, network.HRP, 1)
	}
	for _, b := range c.Balances {
		moveBalance(c.Figures, 0, b)
	}
	return c, nil
}

// unspentIDs lists the unspent outputs created at or before m, of every ledger kind.
func unspentIDs(ctx context.Context, st *store.Store, m uint32) (map[string]bool, error) {
	ids := map[string]bool{}
	for _, kind := range ledgerKinds {
		if err := eachUnspent(ctx, st, kind, m, func(r *store.UnspentRow) { ids[r.OutputID] = true }); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// addSpentAfter adds the outputs the milestones after m consumed, up to the newest
// synced one; a gap among them is an error, as the outputs a missing milestone spent
// would be missed.
func addSpentAfter(ctx context.Context, st *store.Store, m uint32, ids map[string]bool) error {
	cov, err := st.LedgerCoverage(ctx)
	if err != nil {
		return err
	}
	if cov.Index < m || cov.Newest > cov.Index {
		return fmt.Errorf("recount at %d: the synced milestones from it on are not contiguous (contiguous to %d, newest %d)",
			m, cov.Index, cov.Newest)
	}
	for i := m + 1; i <= cov.Index; i++ {
		updates, err := st.MilestoneUpdates(ctx, i)
		if err != nil {
			return fmt.Errorf("outputs milestone %d consumed: %w", i, err)
		}
		for _, u := range updates {
			if u.IsSpent {
				ids[u.OutputID] = true
			}
		}
	}
	return nil
}

// readCreations reads each output's creation (its bytes and booking milestone), a
// bounded number at a time.
func readCreations(ctx context.Context, st *store.Store, ids map[string]bool) ([]chain.LedgerOutput, error) {
	var (
		mu  sync.Mutex
		out = make([]chain.LedgerOutput, 0, len(ids))
	)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(recountReads)
	for text := range ids {
		g.Go(func() error {
			id, err := chain.ParseOutputID(text)
			if err != nil {
				return fmt.Errorf("output ID %q: %w", text, err)
			}
			lo, ok, err := st.StoredCreation(ctx, id)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("output %s: no stored creation", text)
			}
			mu.Lock()
			defer mu.Unlock()
			out = append(out, lo)
			return nil
		})
	}
	return out, g.Wait()
}

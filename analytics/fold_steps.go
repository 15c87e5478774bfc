package analytics

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// FoldSteps checks the ledger families' folded rows milestone by milestone: the figures
// of m must be those of m-1 plus m's delta row (address_balance: as m's balance changes
// move them), and each address m changed must have the balance at m-1 plus its change
// at m (the balance chain of address_balances). It reads two milestones' rows and the
// changed addresses' balances per milestone, never the unspent set.
type FoldSteps struct{ fd *folder }

// NewFoldSteps reads the fold's state; ok is false before the first fold.
func NewFoldSteps(ctx context.Context, st *store.Store) (*FoldSteps, bool, error) {
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	rec, ok, err := st.Protocol(ctx)
	if err != nil || !ok {
		return nil, false, cmp.Or(err, ErrNoProtocol)
	}
	return &FoldSteps{fd: &folder{st: st, params: rec.Params, state: state}}, true, nil
}

// Span is the folded milestones whose rows follow from their predecessor's (after the
// base, through the watermark), and the refold the state records (0: none).
func (s *FoldSteps) Span() (from, to, refoldFrom uint32) {
	return s.fd.state.Base + 1, s.fd.state.Watermark, s.fd.state.RefoldFrom
}

// Check checks milestone m's folded rows against m-1's and m's delta row: differ names
// the figures ("<family>.<path>") that do not follow from them, balances the addresses
// whose balance does not.
func (s *FoldSteps) Check(ctx context.Context, m uint32) (differ, balances []string, err error) {
	want, err := s.fd.figuresAt(ctx, m-1)
	if err != nil {
		return nil, nil, err
	}
	got, err := s.fd.figuresAt(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	d, ok, err := s.fd.st.ReadLedgerDelta(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, fmt.Errorf("milestone %d: %w", m, ErrNoLedgerDelta)
	}
	for k, v := range d.Figures {
		want[k] += v
	}
	if balances, err = s.balanceChain(ctx, m, d.Balances, want); err != nil {
		return nil, nil, err
	}
	return differing(got, want), balances, nil
}

// balanceChain moves each changed address's balance in want, from its stored balance
// at m-1 by its change, and lists the addresses whose stored balance at m is not that.
func (s *FoldSteps) balanceChain(ctx context.Context, m uint32, changes, want map[string]int64) ([]string, error) {
	var wrong []string
	for _, a := range slices.Sorted(maps.Keys(changes)) {
		before, err := s.fd.st.AddressBalanceAt(ctx, a, m-1)
		if err != nil {
			return nil, err
		}
		after, err := s.fd.st.AddressBalanceAt(ctx, a, m)
		if err != nil {
			return nil, err
		}
		moveBalance(want, before, before+changes[a])
		if after != before+changes[a] {
			wrong = append(wrong, a)
		}
	}
	return wrong, nil
}

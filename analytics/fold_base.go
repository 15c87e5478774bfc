package analytics

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// loadState reads the fold's state, or makes the base when there is none: a recount of
// the ledger a snapshot bootstrap wrote at L (complete), else zero figures before the
// oldest synced milestone (partial: they cover what the keyspace indexed since).
func (fd *folder) loadState(ctx context.Context) error {
	state, ok, err := fd.st.LedgerFamilies(ctx)
	if err != nil || ok {
		fd.state = state
		return err
	}
	boot, ok, err := fd.st.LedgerBootstrap(ctx)
	if err != nil {
		return err
	}
	if ok {
		return fd.completeBase(ctx, boot)
	}
	cov, err := fd.st.LedgerCoverage(ctx)
	if err != nil {
		return err
	}
	base := max(cov.Oldest, 1) - 1
	fd.state = store.LedgerFamiliesState{Base: base, Watermark: base}
	return fd.st.AdvanceLedgerFamilies(ctx, fd.state, fd.owner)
}

// completeBase writes the recount of the bootstrapped ledger at L as L's families and
// its owners' balances at L.
func (fd *folder) completeBase(ctx context.Context, boot store.LedgerBootstrap) error {
	c, err := RecountLedger(ctx, fd.st, boot.Index, fd.params)
	if err != nil {
		return err
	}
	if err := fd.st.WriteAddressBalances(ctx, boot.Index, c.Balances, balanceReads); err != nil {
		return err
	}
	fd.state = store.LedgerFamiliesState{Base: boot.Index, Complete: true}
	at := time.Unix(int64(boot.MilestoneTimestamp), 0).UTC()
	return fd.write(ctx, boot.Index, at, c.Figures)
}

// foldBalances moves each address milestone m changed from its balance at m-1 to its
// new one, in figs, and returns the new balances.
func foldBalances(ctx context.Context, st *store.Store, m uint32, changes map[string]int64, figs map[string]int64) (
	map[string]int64, error) {
	var mu sync.Mutex
	old := make(map[string]int64, len(changes))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(balanceReads)
	for a := range changes {
		g.Go(func() error {
			b, err := st.AddressBalanceAt(gctx, a, m-1)
			mu.Lock()
			defer mu.Unlock()
			old[a] = b
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return applyBalances(figs, old, changes), nil
}

// applyBalances moves each changed address from its old balance to old+change in figs
// and returns the new balances.
func applyBalances(figs, old, changes map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(changes))
	for a, d := range changes {
		out[a] = old[a] + d
		moveBalance(figs, old[a], out[a])
	}
	return out
}

// protocolRow is the protocol_parameters family of the parameters: their figures, and
// their TIP-25 JSON as the detail.
func protocolRow(p chain.ProtocolParameters) store.FamilyFigures {
	detail, _ := json.Marshal(tip25.Protocol(p))
	r := p.RentStructure
	return store.FamilyFigures{Family: FamilyProtocol, Detail: string(detail), Figures: map[string]int64{
		"protocol_version": int64(p.Version), "min_pow_score": int64(p.MinPoWScore),
		"below_max_depth": int64(p.BelowMaxDepth), "token_supply": int64(p.TokenSupply),
		"rent.v_byte_cost": int64(r.VByteCost), "rent.v_byte_factor_data": int64(r.VByteFactorData),
		"rent.v_byte_factor_key": int64(r.VByteFactorKey)}}
}

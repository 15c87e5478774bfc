package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// ledgerDeltaWrites are the milestone's ledger family delta row, priced under the
// protocol parameters the store knows (recorded when the network was ensured), its
// addresses under the network's HRP. A store that knows neither writes no row: the
// fold writes it when it reaches the milestone (LedgerFold reads the parameters first).
func ledgerDeltaWrites(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write {
	rec, ok := st.KnownProtocol()
	if !ok || st.HRP() == "" {
		return nil
	}
	return st.LedgerDeltaWrites(cm.Index, LedgerDelta(cm, rec.Params.RentStructure, st.HRP()))
}

// LedgerDelta is what the milestone's ledger changes (what its included transactions
// created and consumed) change in the additive ledger figures and in each owning
// address's balance (bech32 under hrp). Zero changes are left out.
func LedgerDelta(cm *chain.ConfirmedMilestone, rent chain.RentStructure, hrp string) store.LedgerDelta {
	d := store.LedgerDelta{Figures: map[string]int64{}, Balances: map[string]int64{}}
	for i := range cm.Created {
		addOutput(d, &cm.Created[i], rent, hrp, 1)
	}
	for i := range cm.Consumed {
		addOutput(d, &cm.Consumed[i].LedgerOutput, rent, hrp, -1)
	}
	dropZeros(d.Figures)
	dropZeros(d.Balances)
	return d
}

// addOutput adds one output's figures and its owner's balance, times sign, to d: the one
// per-output rule of the deltas and of the recount.
func addOutput(d store.LedgerDelta, lo *chain.LedgerOutput, rent chain.RentStructure, hrp string, sign int64) {
	outputFigures(d.Figures, lo, rent, sign)
	if owner, ok := outputOwner(&lo.Output, hrp); ok {
		d.Balances[owner] += sign * int64(lo.Output.Amount)
	}
}

func dropZeros(m map[string]int64) {
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
}

package api

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Picking an output's rows, as the permanode and the core routes both read them.

// pickCreatedAndSpend picks the output row of the included attachment (else any) and
// the unlock row of the included spend, if there is one: a conflicting spend did not
// spend anything.
func pickCreatedAndSpend(rows []store.TxRow) (created, spend *store.TxRow) {
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Variant == store.VariantOutput && (created == nil || isIncluded(r)):
			created = r
		case r.Variant == store.VariantUnlock && isIncluded(r):
			spend = r
		}
	}
	return created, spend
}

func isIncluded(r *store.TxRow) bool {
	return r.InclusionState != nil && chain.InclusionState(*r.InclusionState) == chain.Included
}

// confirmedRow is the first row not in the pending partition, else the first row.
func confirmedRow(rows []store.OutputRow) *store.OutputRow {
	for i := range rows {
		if !rows[i].Pending() {
			return &rows[i]
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return &rows[0]
}

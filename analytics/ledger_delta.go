package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// ledgerDeltaWrites are the milestone's ledger family delta row.
func ledgerDeltaWrites(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write { return nil }

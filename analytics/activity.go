package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// activityWrites are the milestone's activity family rows.
func activityWrites(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write { return nil }

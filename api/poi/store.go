package poi

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the proof routes read of the store: the milestone keys a proof is
// validated against; *store.Store in the server's wiring.
type Store interface {
	MilestoneKeys(ctx context.Context) (chain.MilestoneKeys, error)
}

var _ Store = (*store.Store)(nil)

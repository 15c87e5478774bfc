package wallet

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the wallet routes read of the store; *store.Store in the server's wiring.
type Store interface {
	LedgerIndex(ctx context.Context) (store.LedgerIndex, error)
	SpentTwinHolds(ctx context.Context, index uint32) (bool, error)
	AddressHintsOf(ctx context.Context, address string, kinds []chain.OutputKind, roles []string) ([]store.AddressHint, error)
	LedgerPage(ctx context.Context, s store.LedgerStream, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	BookedRow(ctx context.Context, kind chain.OutputKind, key string, id chain.OutputID, index uint32) (store.OutputRow, error)
	Milestone(ctx context.Context, index uint32) (store.MilestoneRecord, error)
	RangeStart(rng int32) uint32
}

var _ Store = (*store.Store)(nil)

package core

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the core API (TIP-25) reads of the store: milestones, receipts, the
// treasury, the ledger index and the network's records; *store.Store in the server's wiring.
type Store interface {
	IncludedMessage(ctx context.Context, txID string) (string, error)
	LedgerIndex(ctx context.Context) (store.LedgerIndex, error)
	Milestone(ctx context.Context, index uint32) (store.MilestoneRecord, error)
	MilestoneUpdates(ctx context.Context, index uint32) ([]store.MilestoneUpdate, error)
	NewestTreasury(ctx context.Context) (t store.Treasury, ok bool, err error)
	Receipts(ctx context.Context) ([]store.ReceiptRecord, error)
	ReceiptsMigratedAt(ctx context.Context, migratedAt uint32) ([]store.ReceiptRecord, error)
}

var _ Store = (*store.Store)(nil)

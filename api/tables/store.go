package tables

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the schema's reads read of the store: its tables' selects and the
// analytics rows (analytics.StatsReader); *store.Store in the server's wiring.
type Store interface {
	analytics.StatsReader
	AddressRanges(ctx context.Context, address string, kind chain.OutputKind, variant string) ([]int32, error)
	ChildrenPage(ctx context.Context, parentID string, tr store.TimeRange, req store.PageRequest) ([]store.ChildRow, []byte, error)
	IncludedMessage(ctx context.Context, txID string) (string, error)
	LegacyOutput(ctx context.Context, outputID string) ([]store.LegacyRow, error)
	LegacyPage(ctx context.Context, address string, rng int32, req store.PageRequest) ([]store.LegacyRow, []byte, error)
	MessageMetadata(ctx context.Context, id string) (store.MessageRecord, error)
	OutputAndUnlocks(ctx context.Context, id chain.OutputID) ([]store.TxRow, error)
	OutputVersions(ctx context.Context, kind chain.OutputKind, key string, req store.PageRequest) ([]store.OutputRow, []byte, error)
	OutputsPage(ctx context.Context, kind chain.OutputKind, column string, value string, rng int32, tr store.TimeRange, req store.PageRequest) ([]store.OutputRow, []byte, error)
	SyncView(ctx context.Context) (store.SyncStatus, error)
	TagPage(ctx context.Context, tag string, rng int32, tr store.TimeRange, req store.PageRequest) ([]store.TagRow, []byte, error)
	TagRanges(ctx context.Context, tag string, tableKind string) ([]int32, error)
	TransactionRows(ctx context.Context, txID string) ([]store.TxRow, error)
	Unavailable(ctx context.Context) ([]store.Range, error)
}

var _ Store = (*store.Store)(nil)

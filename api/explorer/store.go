package explorer

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the explorer routes read of the store; *store.Store in the server's wiring.
type Store interface {
	AddressUpdatesPage(ctx context.Context, address string, rng int32, first uint32, last uint32, oldest bool, req store.PageRequest) ([]store.AddressUpdate, []byte, error)
	ChildrenPage(ctx context.Context, parentID string, tr store.TimeRange, req store.PageRequest) ([]store.ChildRow, []byte, error)
	FloorSynced(ctx context.Context, span store.SyncSpan, index uint32) (uint32, error)
	BookedRow(ctx context.Context, kind chain.OutputKind, key string, id chain.OutputID, index uint32) (store.OutputRow, error)
	IncludedMessage(ctx context.Context, txID string) (string, error)
	LatestLedgerAnalytics(ctx context.Context) (store.LedgerSummary, error)
	LedgerIndex(ctx context.Context) (store.LedgerIndex, error)
	LedgerPage(ctx context.Context, s store.LedgerStream, rng int32, span store.Span, req store.PageRequest) ([]store.UnspentRow, []byte, error)
	LedgerAt(ctx context.Context, c store.LedgerCoverage, index uint32) (store.LedgerIndex, error)
	SpentTwinHolds(ctx context.Context, index uint32) (bool, error)
	LedgerUpdateRanges(ctx context.Context, address string) ([]int32, error)
	MessageMetadata(ctx context.Context, id string) (store.MessageRecord, error)
	MilestoneMessagesPage(ctx context.Context, index uint32, newest bool, req store.PageRequest) ([]store.MilestoneMessage, []byte, error)
	MilestoneTime(ctx context.Context, index uint32) (time.Time, error)
	MilestoneUpdatesPage(ctx context.Context, index uint32, req store.PageRequest) ([]store.MilestoneUpdate, []byte, error)
	OwnerCandidates(ctx context.Context, address string, limit int, createdBy uint32) ([]store.UnspentRow, error)
	SpentOwnerCandidates(ctx context.Context, address string, limit int, createdBy uint32) ([]store.UnspentRow, error)
	RangeID(index uint32) int32
	RichestAddresses(ctx context.Context, ledgerIndex uint32, top int) ([]store.RichAddress, error)
	SyncTip(ctx context.Context) (store.SyncSpan, error)
	TokenDistribution(ctx context.Context, ledgerIndex uint32) ([]store.DistributionBucket, error)
}

var _ Store = (*store.Store)(nil)

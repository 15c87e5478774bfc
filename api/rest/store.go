package rest

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the shared reads read of the store: milestones, messages, proofs'
// message lists, output versions and the ledger coverage; *store.Store in the server's wiring.
type Store interface {
	AppliedMessages(ctx context.Context, index uint32) ([]string, error)
	BookedOutput(ctx context.Context, id chain.OutputID, o *chain.Output, index uint32) (store.OutputRow, error)
	LedgerCoverage(ctx context.Context) (store.LedgerCoverage, error)
	LegacyOutput(ctx context.Context, outputID string) ([]store.LegacyRow, error)
	Message(ctx context.Context, id string) (store.MessageRecord, error)
	MessageRaw(ctx context.Context, id string) ([]byte, error)
	Milestone(ctx context.Context, index uint32) (store.MilestoneRecord, error)
	MilestoneBucketsReady(ctx context.Context) (bool, error)
	MilestoneList(ctx context.Context, start uint32, end uint32) ([]store.MilestoneRecord, error)
	MilestoneIndexByID(ctx context.Context, milestoneID string) (uint32, error)
	Network(ctx context.Context) (store.NetworkRecord, bool, error)
	MilestoneMessages(ctx context.Context, index uint32) ([]string, error)
	OutputCreations(ctx context.Context, id chain.OutputID) ([]store.TxRow, error)
	OutputVersions(ctx context.Context, kind chain.OutputKind, key string, req store.PageRequest) ([]store.OutputRow, []byte, error)
	Protocol(ctx context.Context) (store.ProtocolRecord, bool, error)
}

var _ Store = (*store.Store)(nil)

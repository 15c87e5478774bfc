// Package events serves the event stream (GET /api/stream/v1/events): the events of a
// subscription from a milestone on, replayed from what is indexed and then followed as
// milestones are indexed, as Server-Sent Events whose IDs let a client resume exactly
// after the last event it saw, on this server or another over the same keyspace.
package events

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the event stream reads of the store; *store.Store in the server's wiring.
type Store interface {
	AddressUpdatesPage(ctx context.Context, address string, rng int32, first uint32, last uint32, oldest bool, req store.PageRequest) ([]store.AddressUpdate, []byte, error)
	LedgerIndex(ctx context.Context) (store.LedgerIndex, error)
	MilestoneTime(ctx context.Context, index uint32) (time.Time, error)
	MilestoneUpdates(ctx context.Context, index uint32) ([]store.MilestoneUpdate, error)
	RangeID(index uint32) int32
	RangeStart(rng int32) uint32
	TagPage(ctx context.Context, tag string, rng int32, tr store.TimeRange, req store.PageRequest) ([]store.TagRow, []byte, error)
}

var _ Store = (*store.Store)(nil)

// API serves the event stream.
type API struct {
	*rest.Reads
	st     Store
	tips   *rest.TipWatch
	shared *sharedReads
}

// New is the surface over r and st, its live streams woken by tips. With unshared,
// each stream reads its own events rather than sharing the reads of the same windows
// (sharedReads): the benchmark's comparison.
func New(r *rest.Reads, st Store, tips *rest.TipWatch, unshared bool) *API {
	return &API{Reads: r, st: st, tips: tips, shared: newSharedReads(unshared)}
}

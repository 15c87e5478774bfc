package analytics

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the analytics routes read of the store: the family rows and the
// sync tip; *store.Store in the server's wiring.
type Store interface {
	DateMilestones(ctx context.Context, day time.Time) (store.Range, bool, error)
	DailyFamilyRange(ctx context.Context, family string, from time.Time, to time.Time) ([]store.DailyFamilyPoint, error)
	FamilyRange(ctx context.Context, family string, from uint32, to uint32, limit int) ([]store.FamilyPoint, error)
	LedgerFamilies(ctx context.Context) (store.LedgerFamiliesState, bool, error)
	MilestoneFamily(ctx context.Context, family string, index uint32) (store.FamilyPoint, bool, error)
	SyncTip(ctx context.Context) (store.SyncSpan, error)
}

var _ Store = (*store.Store)(nil)

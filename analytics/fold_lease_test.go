package analytics

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The keeper renews the fold's lease once a third of its TTL has passed since it was
// taken or renewed (not before), and reports the lease lost once another owner holds it.
func TestLeaseKeeperRenewsAndNoticesALoss(t *testing.T) {
	testcontainers.SkipShort(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, _ := storetest.New(t, 0)
	lease := store.Lease{Name: LedgerFoldLeaseName, Owner: "a", TTL: 30 * time.Second}
	if held, err := st.AcquireLease(ctx, lease); err != nil || !held {
		t.Fatalf("acquire: %t, %v", held, err)
	}
	clock := time.Now()
	k := newLeaseKeeper(st, lease)
	k.last, k.now = clock, func() time.Time { return clock }
	if err := k.keep(ctx); err != nil || !k.last.Equal(clock) {
		t.Fatalf("keep before a third of the TTL: %v, renewed at %v", err, k.last)
	}
	clock = clock.Add(11 * time.Second)
	if err := k.keep(ctx); err != nil || !k.last.Equal(clock) {
		t.Fatalf("keep after a third of the TTL: %v, last renewal %v, want %v", err, k.last, clock)
	}
	if err := st.ReleaseLease(ctx, lease); err != nil {
		t.Fatal(err)
	}
	other := lease
	other.Owner = "b"
	if held, err := st.AcquireLease(ctx, other); err != nil || !held {
		t.Fatalf("acquire by b: %t, %v", held, err)
	}
	clock = clock.Add(11 * time.Second)
	if err := k.keep(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("keep after b took the lease: %v, want ErrLeaseLost", err)
	}
	var none *leaseKeeper
	if err := none.keep(ctx); err != nil {
		t.Fatalf("a nil keeper: %v", err)
	}
}

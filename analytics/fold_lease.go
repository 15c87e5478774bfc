package analytics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// ErrLeaseLost: the fold's lease could not be renewed (it expired and another node took
// it): this node stops folding, so two folds never write the same rows.
var ErrLeaseLost = errors.New("the fold's lease was lost")

// leaseKeeper renews a held lease while a long fold or recompute runs: at the first
// milestone after a third of its TTL has passed since it was taken or last renewed, so
// a batch of any length keeps it.
type leaseKeeper struct {
	st    *store.Store
	lease store.Lease
	every time.Duration
	last  time.Time
	now   func() time.Time
}

func newLeaseKeeper(st *store.Store, lease store.Lease) *leaseKeeper {
	return &leaseKeeper{st: st, lease: lease, every: lease.TTL / 3, last: time.Now(), now: time.Now}
}

// keep renews the lease when it is due; ErrLeaseLost when another owner holds it now.
// A nil keeper (no lease held) does nothing.
func (k *leaseKeeper) keep(ctx context.Context) error {
	if k == nil || k.now().Sub(k.last) < k.every {
		return nil
	}
	held, err := k.st.RenewLease(ctx, k.lease)
	if err != nil {
		return fmt.Errorf("renewing the lease %s: %w", k.lease.Name, err)
	}
	if !held {
		return fmt.Errorf("%w (%s)", ErrLeaseLost, k.lease.Name)
	}
	k.last = k.now()
	return nil
}

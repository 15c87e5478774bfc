package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Lease is a named, expiring claim on a piece of work (a daily job, a milestone range),
// taken with a lightweight transaction so two nodes never hold it at once. The row's TTL
// frees it when its owner dies without releasing it.
type Lease struct {
	Name  string
	Owner string
	TTL   time.Duration
}

// AcquireLease takes the lease if nobody holds it, or renews it if this owner does.
func (st *Store) AcquireLease(ctx context.Context, l Lease) (bool, error) {
	applied, current, err := st.s.CAS(ctx, cql.AcquireLease, l.Name, l.Owner, time.Now().Add(l.TTL), l.ttlSeconds())
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", l.Name, err)
	}
	if applied {
		return true, nil
	}
	if owner, _ := current["owner"].(string); owner == l.Owner {
		return st.RenewLease(ctx, l)
	}
	return false, nil
}

// RenewLease extends the lease if this owner still holds it.
func (st *Store) RenewLease(ctx context.Context, l Lease) (bool, error) {
	applied, _, err := st.s.CAS(ctx, cql.RenewLease, l.ttlSeconds(), l.Owner, time.Now().Add(l.TTL), l.Name, l.Owner)
	if err != nil {
		return false, fmt.Errorf("renewing lease %s: %w", l.Name, err)
	}
	return applied, nil
}

// ReleaseLease gives the lease back if this owner holds it.
func (st *Store) ReleaseLease(ctx context.Context, l Lease) error {
	if _, _, err := st.s.CAS(ctx, cql.ReleaseLease, l.Name, l.Owner); err != nil {
		return fmt.Errorf("releasing lease %s: %w", l.Name, err)
	}
	return nil
}

// LeaseHolder returns who holds a lease ("" when free).
func (st *Store) LeaseHolder(ctx context.Context, name string) (string, error) {
	var owner string
	var expires time.Time
	err := notFound(st.s.Scan(ctx, cql.Lease, []any{name}, &owner, &expires))
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	return owner, err
}

func (l Lease) ttlSeconds() int {
	return max(int(l.TTL/time.Second), 1)
}

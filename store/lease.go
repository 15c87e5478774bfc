package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocql/gocql"

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

// Acquire takes the lease if nobody holds it, or renews it if this owner does.
func (l Lease) Acquire(ctx context.Context, s *cql.Session) (bool, error) {
	applied, current, err := s.CAS(ctx, cql.AcquireLease, l.Name, l.Owner, time.Now().Add(l.TTL), l.ttlSeconds())
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", l.Name, err)
	}
	if applied {
		return true, nil
	}
	if owner, _ := current["owner"].(string); owner == l.Owner {
		return l.Renew(ctx, s)
	}
	return false, nil
}

// Renew extends the lease if this owner still holds it.
func (l Lease) Renew(ctx context.Context, s *cql.Session) (bool, error) {
	applied, _, err := s.CAS(ctx, cql.RenewLease, l.ttlSeconds(), l.Owner, time.Now().Add(l.TTL), l.Name, l.Owner)
	if err != nil {
		return false, fmt.Errorf("renewing lease %s: %w", l.Name, err)
	}
	return applied, nil
}

// Release gives the lease back if this owner holds it.
func (l Lease) Release(ctx context.Context, s *cql.Session) error {
	if _, _, err := s.CAS(ctx, cql.ReleaseLease, l.Name, l.Owner); err != nil {
		return fmt.Errorf("releasing lease %s: %w", l.Name, err)
	}
	return nil
}

// Holder returns who holds a lease ("" when free).
func Holder(ctx context.Context, s *cql.Session, name string) (string, error) {
	var owner string
	var expires time.Time
	err := s.Scan(ctx, cql.Lease, []any{name}, &owner, &expires)
	if errors.Is(err, gocql.ErrNotFound) {
		return "", nil
	}
	return owner, err
}

func (l Lease) ttlSeconds() int {
	return max(int(l.TTL/time.Second), 1)
}

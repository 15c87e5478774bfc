package store

import (
	"context"
	"time"
)

// bootstrapTTL is how long a read of the bootstrap record is served from memory. The
// record changes only when a snapshot bootstrap finishes (a job of hours, run rarely),
// and every ledger answer needs it: reading it once per request would add a third read
// to the two of the sync summary for a row that almost never changes. Within the TTL a
// new record goes unseen, so the coverage understates (partial, or an older L) for at
// most that long; it never claims more than the tables hold.
const bootstrapTTL = 10 * time.Second

// bootstrapRead is one read of the bootstrap record: nil when there is none.
type bootstrapRead struct {
	boot *LedgerBootstrap
	at   time.Time
}

// cachedBootstrap is LedgerBootstrap, served from the last read while it is younger than
// bootstrapTTL. Errors are not kept.
func (st *Store) cachedBootstrap(ctx context.Context) (*LedgerBootstrap, error) {
	if r := st.bootstrap.Load(); r != nil && time.Since(r.at) < bootstrapTTL {
		return r.boot, nil
	}
	b, ok, err := st.LedgerBootstrap(ctx)
	if err != nil {
		return nil, err
	}
	r := &bootstrapRead{at: time.Now()}
	if ok {
		r.boot = &b
	}
	st.bootstrap.Store(r)
	return r.boot, nil
}

package store

import (
	"context"
	"sync"
	"time"
)

// rebuiltViewTTL is how long a view of the whole sync table serves SyncView while the
// summary is missing or far behind: at most one full read per store and TTL.
const rebuiltViewTTL = time.Second

// rebuiltView is the sync view read from the whole sync table, kept in memory: one
// caller reads while the others wait for its answer (single-flight).
type rebuiltView struct {
	mu sync.Mutex // held for the read: one full read at a time
	at time.Time  // when s was read; zero: never
	s  syncSummary
}

// view answers the kept view while it is younger than rebuiltViewTTL, else reads the
// sync table (Status) and keeps its summary. It never writes.
func (r *rebuiltView) view(ctx context.Context, st *Store) (SyncStatus, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.at.IsZero() && time.Since(r.at) < rebuiltViewTTL {
		return statusOf(r.s), nil
	}
	full, err := st.Status(ctx)
	if err != nil {
		return SyncStatus{}, err
	}
	r.s, r.at = capped(full.Synced, syncSummary{}), time.Now()
	return statusOf(r.s), nil
}

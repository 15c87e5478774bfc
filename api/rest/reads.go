package rest

import "sync/atomic"

// Reads is what every surface reads through: the store, and the reads several surfaces
// share (milestone and message look-ups, ledger outputs, proofs, coverage, milestone lists).
type Reads struct {
	st Store
	// listed: milestones_by_bucket lists every milestone (store.MilestoneBucketsReady),
	// known once seen; until then GET /milestones reads milestone by milestone.
	listed atomic.Bool
}

// NewReads reads through st.
func NewReads(st Store) *Reads { return &Reads{st: st} }

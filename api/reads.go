package api

import (
	"sync/atomic"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// reads is what every surface reads through: the store, and the reads several surfaces
// share (milestone and message look-ups, ledger outputs, proofs, coverage, milestone lists).
type reads struct {
	st *store.Store
	// listed: milestones_by_bucket lists every milestone (store.MilestoneBucketsReady),
	// known once seen; until then GET /milestones reads milestone by milestone.
	listed atomic.Bool
}

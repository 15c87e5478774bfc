package core

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// API serves TIP-25, the node's core API.
type API struct {
	*rest.Reads
	st           Store
	health       *ops.Probe[ledgerTip] // /health's read of the ledger tip
	healthMaxAge time.Duration
}

// New is the core API over r and st; its /health says healthy while the newest indexed
// milestone is at most healthMaxAge old.
func New(r *rest.Reads, st Store, healthMaxAge time.Duration) *API {
	c := &API{Reads: r, st: st, healthMaxAge: healthMaxAge}
	// The probe's read is tried once: a probe answers from its deadline, not after retries.
	c.health = ops.NewProbe("health", func(ctx context.Context) (ledgerTip, error) {
		return c.ledgerTip(store.NoRetries(ctx))
	})
	return c
}

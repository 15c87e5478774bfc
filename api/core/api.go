package core

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"

	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// coreAPI serves TIP-25, the node's core API.
type coreAPI struct {
	*rest.Reads
	health       *ops.Probe[ledgerTip] // /health's read of the ledger tip
	healthMaxAge time.Duration
}

// New is the core API; its /health says healthy while the newest indexed
// milestone is at most healthMaxAge old.
func New(r *rest.Reads, healthMaxAge time.Duration) *coreAPI {
	c := &coreAPI{Reads: r, healthMaxAge: healthMaxAge}
	// The probe's read is tried once: a probe answers from its deadline, not after retries.
	c.health = ops.NewProbe("health", func(ctx context.Context) (ledgerTip, error) {
		return c.ledgerTip(store.NoRetries(ctx))
	})
	return c
}

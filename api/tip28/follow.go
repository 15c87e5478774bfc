package tip28

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

const (
	// maxCatchUp bounds the milestones published at once after the ledger index jumped
	// (a gap filled, the broker stalled): only the newest ones are, as live events.
	maxCatchUp = 100
	// publishWindow bounds one milestone's reads and publications.
	publishWindow = 30 * time.Second
	// followIdle is how long the follower waits on the tip watch before it asks again.
	followIdle = time.Minute
)

// follow publishes each milestone as the ledger index passes it, from last on (the
// ledger index when the broker started; 0: the first one read), woken by the server's
// tip watch: what a milestone passed while no client was connected is skipped (a
// subscriber reads what came before through the REST routes, or gets it as the topic's
// current value). A milestone whose publication failed is tried again a poll later.
func (b *Broker) follow(srv *mqtt.Server, last uint32) {
	defer close(b.done)
	ctx := b.stopped
	for {
		tip, err := b.tips.Wait(ctx, last, followIdle)
		if err != nil {
			return // stopped
		}
		if tip <= last {
			continue
		}
		if last = b.catchUp(srv, last, tip); last < tip {
			select {
			case <-ctx.Done():
				return
			case <-time.After(rest.TipPoll):
			}
		}
	}
}

// tip is the ledger index (0 when it cannot be read).
func (b *Broker) tip() uint32 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	li, err := b.st.LedgerIndex(ctx)
	if err != nil {
		return 0
	}
	return li.Index
}

// catchUp publishes the milestones after last up to tip, the ledger index, and returns
// the last one published: on a failure, the one before it, which follow tries again.
func (b *Broker) catchUp(srv *mqtt.Server, last, tip uint32) uint32 {
	if last == 0 || atomic.LoadInt64(&srv.Info.ClientsConnected) == 0 {
		return tip
	}
	if tip-last > maxCatchUp {
		slog.Warn("tip28: the ledger index jumped; publishing only the newest milestones",
			"from", last+1, "to", tip, "published", maxCatchUp)
		last = tip - maxCatchUp
	}
	for m := last + 1; m <= tip; m++ {
		ctx, cancel := context.WithTimeout(context.Background(), publishWindow)
		err := b.publishMilestone(ctx, srv, m)
		cancel()
		if err != nil {
			slog.Warn("tip28: publishing a milestone (tried again)", "milestone", m, "error", err)
			return m - 1
		}
	}
	return tip
}

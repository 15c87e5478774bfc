package tip28

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"

	"github.com/stardust-indexer/stardust-indexer/store"
)

const (
	// followPoll is how often the broker reads the ledger index while a client is
	// connected.
	followPoll = 250 * time.Millisecond
	// maxCatchUp bounds the milestones published at once after the ledger index jumped
	// (a gap filled, the broker stalled): only the newest ones are, as live events.
	maxCatchUp = 100
	// publishWindow bounds one milestone's reads and publications.
	publishWindow = 30 * time.Second
)

// follow publishes each milestone as the ledger index passes it, from last on (the
// ledger index when the broker started; 0: the first one read): what a milestone
// passed while no client was connected is skipped (a subscriber reads what came before
// through the REST routes, or gets it as the topic's current value).
func (b *Broker) follow(srv *mqtt.Server, last uint32) {
	defer close(b.done)
	tick := time.NewTicker(followPoll)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
		last = b.catchUp(srv, last)
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

// catchUp publishes the milestones after last up to the ledger index, and returns the
// last one published: on a failure, the one before it, which the next poll tries again.
func (b *Broker) catchUp(srv *mqtt.Server, last uint32) uint32 {
	ctx, cancel := context.WithTimeout(context.Background(), publishWindow)
	li, err := b.st.LedgerIndex(ctx)
	cancel()
	if err != nil {
		if !errors.Is(err, store.ErrNothingSynced) {
			slog.Warn("tip28: reading the ledger index (tried again)", "error", err)
		}
		return last
	}
	if last == 0 || li.Index <= last || atomic.LoadInt64(&srv.Info.ClientsConnected) == 0 {
		return li.Index
	}
	if li.Index-last > maxCatchUp {
		slog.Warn("tip28: the ledger index jumped; publishing only the newest milestones",
			"from", last+1, "to", li.Index, "published", maxCatchUp)
		last = li.Index - maxCatchUp
	}
	for m := last + 1; m <= li.Index; m++ {
		ctx, cancel := context.WithTimeout(context.Background(), publishWindow)
		err := b.publishMilestone(ctx, srv, m)
		cancel()
		if err != nil {
			slog.Warn("tip28: publishing a milestone (tried again)", "milestone", m, "error", err)
			return m - 1
		}
	}
	return li.Index
}

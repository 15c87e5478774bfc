package tip28

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// pushWindow bounds the wait for a push's turn and its reads.
const pushWindow = 10 * time.Second

// push publishes a topic's current value for its new subscriber, as inx-mqtt does on a
// subscription: the ledger index's milestone for milestone-info, an output as it
// stands, the block that included a transaction, a block's metadata. Topics of
// changes only (milestones, the unlock topics) have none. It runs on its own, at most
// maxPushes at a time.
func (b *Broker) push(t topic) {
	if t.kind == kindMilestones || t.kind == kindUnlock {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), pushWindow)
		defer cancel()
		select {
		case b.pushes <- struct{}{}:
			defer func() { <-b.pushes }()
		case <-ctx.Done():
			return
		}
		srv := b.running()
		if srv == nil {
			return
		}
		payload, err := b.current(ctx, t)
		var nf *rest.APIError
		switch {
		case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNothingSynced), errors.As(err, &nf) && nf.Status == 404:
		case err != nil:
			slog.Warn("tip28: reading a topic's current value", "topic", t.String(), "error", err)
		case payload != nil:
			b.publish(srv, t.kind, t.String(), payload)
		}
	}()
}

// current is a topic's current value (nil: none).
func (b *Broker) current(ctx context.Context, t topic) ([]byte, error) {
	switch t.kind {
	case kindLatest, kindConfirmed:
		li, err := b.st.LedgerIndex(ctx)
		if err != nil {
			return nil, err
		}
		return json.Marshal(milestoneInfo{Index: li.Index, Timestamp: uint32(li.Timestamp), MilestoneID: li.MilestoneID})
	case kindOutput:
		li, err := b.st.LedgerIndex(ctx)
		if err != nil {
			return nil, err
		}
		lo, err := b.reads.LedgerOutput(ctx, t.outputID())
		if err != nil || lo.Booked > li.Index {
			return nil, err
		}
		return b.outputPayload(ctx, lo, li.Index, false)
	case kindIncluded:
		block, err := b.st.IncludedMessage(ctx, t.id)
		if err != nil {
			return nil, err
		}
		return b.reads.IndexedMessageRaw(ctx, "block", block)
	case kindBlockMetadata:
		md, err := b.reads.BlockMetadata(ctx, t.id)
		if err != nil {
			return nil, err
		}
		return json.Marshal(md)
	}
	return nil, nil
}

package tip28

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	mqtt "github.com/mochi-mqtt/server/v2"
	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// maxReads bounds the reads one milestone's publication runs at once.
const maxReads = 8

// publishMilestone publishes what milestone m changed, as Hornet publishes a milestone
// once its ledger update is applied: its outputs' creations and spends (outputs/{id},
// the unlock topics, transactions' included blocks), the metadata of the blocks it
// referenced, then the milestone itself and milestone-info. Only what some client
// subscribes to is read.
func (b *Broker) publishMilestone(ctx context.Context, srv *mqtt.Server, m uint32) error {
	rec, err := b.st.Milestone(ctx, m)
	if errors.Is(err, store.ErrNotFound) {
		slog.Warn("tip28: the ledger index passed a milestone that is not indexed; nothing published", "milestone", m)
		return nil
	}
	if err != nil {
		return fmt.Errorf("milestone %d: %w", m, err)
	}
	w := b.wanted(srv)
	if w.any(kindOutput, kindUnlock, kindIncluded) {
		if err := b.publishOutputs(ctx, srv, m, w); err != nil {
			return err
		}
	}
	if w.any(kindBlockMetadata) {
		if err := b.publishBlockMetadata(ctx, srv, m, w); err != nil {
			return err
		}
	}
	if w.any(kindMilestones) {
		b.publish(srv, kindMilestones, topicMilestones, rec.Payload)
	}
	info, err := json.Marshal(milestoneInfo{Index: m, Timestamp: uint32(rec.Timestamp), MilestoneID: rec.MilestoneID})
	if err != nil {
		return err
	}
	b.publish(srv, kindLatest, topicLatest, info)
	b.publish(srv, kindConfirmed, topicConfirmed, info)
	return nil
}

// publish sends payload on topicName at QoS 0, not retained, as inx-mqtt does; one
// publication at a time, since they all go through the broker's one inline client.
func (b *Broker) publish(srv *mqtt.Server, k kind, topicName string, payload []byte) {
	b.publishing.Lock()
	err := srv.Publish(topicName, payload, false, 0)
	b.publishing.Unlock()
	if err != nil {
		slog.Warn("tip28: publishing", "topic", topicName, "error", err)
		return
	}
	b.metrics.published.WithLabelValues(families[k]).Inc()
}

// publishOutputs publishes the creations and spends of milestone m that a client
// subscribes to.
func (b *Broker) publishOutputs(ctx context.Context, srv *mqtt.Server, m uint32, w wanted) error {
	updates, err := b.st.MilestoneUpdates(ctx, m)
	if err != nil {
		return fmt.Errorf("milestone %d: ledger updates: %w", m, err)
	}
	hrp := b.network.hrp(b.reads)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxReads)
	for _, u := range updates {
		id, err := chain.ParseOutputID(u.OutputID)
		if err != nil {
			return fmt.Errorf("milestone %d: ledger update of output %q: %w", m, u.OutputID, err)
		}
		created := !u.IsSpent
		inclusion := created && id.Index() == 0 && w.included[id.TransactionID().String()]
		if !w.outputs[id.String()] && len(w.unlock) == 0 && !inclusion {
			continue
		}
		g.Go(func() error { return b.publishOutput(gctx, srv, m, id, created, w, hrp) })
	}
	return g.Wait()
}

// publishOutput publishes one creation or spend of milestone m on the topics a client
// subscribes to: outputs/{id}, the unlock topics of each address its conditions name
// (then the literal outputs/unlock/+/{address} once per address), and for a
// transaction's first output the block that included it.
func (b *Broker) publishOutput(ctx context.Context, srv *mqtt.Server, m uint32, id chain.OutputID, created bool,
	w wanted, hrp string) error {
	lo, err := b.reads.LedgerOutput(ctx, id)
	if err != nil {
		return fmt.Errorf("milestone %d: output %s: %w", m, id, err)
	}
	payload, err := b.outputPayload(ctx, lo, m, created)
	if err != nil {
		return err
	}
	if w.outputs[id.String()] {
		b.publish(srv, kindOutput, "outputs/"+id.String(), payload)
	}
	var named []string
	for _, c := range unlockAddresses(&lo.Output) {
		a := c.address.Bech32(hrp)
		if w.unlock[a] {
			b.publish(srv, kindUnlock, unlockTopic(c.cond, a, !created), payload)
			named = append(named, a)
		}
	}
	slices.Sort(named)
	for _, a := range slices.Compact(named) {
		b.publish(srv, kindUnlock, unlockTopic(anyConditionLevel, a, !created), payload)
	}
	tx := id.TransactionID().String()
	if !created || id.Index() != 0 || !w.included[tx] {
		return nil
	}
	raw, err := b.reads.IndexedMessageRaw(ctx, "block", lo.Block.String())
	if err != nil {
		return fmt.Errorf("milestone %d: the block of transaction %s: %w", m, tx, err)
	}
	b.publish(srv, kindIncluded, topic{kind: kindIncluded, id: tx}.String(), raw)
	return nil
}

// publishBlockMetadata publishes the metadata of the blocks milestone m referenced
// that a client subscribes to.
func (b *Broker) publishBlockMetadata(ctx context.Context, srv *mqtt.Server, m uint32, w wanted) error {
	ids, err := b.st.MilestoneMessages(ctx, m)
	if err != nil {
		return fmt.Errorf("milestone %d: referenced blocks: %w", m, err)
	}
	for _, text := range ids {
		id, err := chain.ParseMessageID(text)
		if err != nil || !w.blocks[id.String()] {
			continue
		}
		md, err := b.reads.BlockMetadata(ctx, id.String())
		if err != nil {
			return fmt.Errorf("milestone %d: block %s: %w", m, id, err)
		}
		payload, err := json.Marshal(md)
		if err != nil {
			return err
		}
		b.publish(srv, kindBlockMetadata, topic{kind: kindBlockMetadata, id: id.String()}.String(), payload)
	}
	return nil
}

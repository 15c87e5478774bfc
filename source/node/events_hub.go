package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// Topics of Hornet's event API (inx-mqtt) the source listens to.
const (
	topicConfirmed  = "milestone-info/confirmed"  // JSON {index, timestamp, milestoneId}
	topicBlocks     = "blocks"                    // a block's serialized bytes
	topicReferenced = "block-metadata/referenced" // JSON block metadata, once referenced
)

// eventHub turns events into hints: a wake-up when a milestone may be confirmed, and
// the blocks not referenced yet (with a wake-up to write them). Nothing an event says is written as confirmed: the
// REST fetch and verification stay the source of truth, so a lost or forged event costs
// at most a wake-up or a pending row (which expires with its TTL).
type eventHub struct {
	wake    chan struct{}
	tip     atomic.Uint32 // the highest confirmed milestone seen, by /info or by event
	pending *pendingBlocks
	nudging atomic.Bool // a wake-up for new pending blocks is scheduled
}

// pendingNudge is how long after a new pending block the follower is woken to write
// it: a burst of blocks costs one wake-up (and one /info request per node).
const pendingNudge = 500 * time.Millisecond

func newEventHub() *eventHub {
	return &eventHub{wake: make(chan struct{}, 1), pending: newPendingBlocks()}
}

// errEvent names an event the source could not use (counted, then dropped).
var errEvent = errors.New("unusable event")

// handle applies one event; an error means it was dropped.
func (h *eventHub) handle(topic string, payload []byte, now time.Time) error {
	switch topic {
	case topicConfirmed:
		return h.confirmed(payload)
	case topicBlocks:
		return h.block(payload, now)
	case topicReferenced:
		return h.referenced(payload)
	}
	return fmt.Errorf("%w: topic %q", errEvent, topic)
}

// confirmed wakes the follower: a milestone may be confirmed.
func (h *eventHub) confirmed(payload []byte) error {
	var info tip25.MilestoneInfoJSON
	if err := json.Unmarshal(payload, &info); err != nil || info.Index == 0 {
		return fmt.Errorf("%w: %s without a milestone index", errEvent, topicConfirmed)
	}
	h.wakeUp()
	return nil
}

func (h *eventHub) wakeUp() {
	select {
	case h.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// nudge wakes the follower pendingNudge from now, unless a wake-up is scheduled.
func (h *eventHub) nudge() {
	if h.nudging.CompareAndSwap(false, true) {
		time.AfterFunc(pendingNudge, func() {
			h.nudging.Store(false)
			h.wakeUp()
		})
	}
}

// block keeps a block as pending, estimated to be referenced by the milestone after the
// highest confirmed one seen. Blocks carrying a milestone are left out: the next
// milestone references them at once.
func (h *eventHub) block(raw []byte, now time.Time) error {
	m, err := chain.DecodeMessage(raw)
	if err == nil {
		err = chain.ValidateMessage(m, raw)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %w", errEvent, topicBlocks, err)
	}
	if m.MilestoneOf() != nil {
		return nil
	}
	if h.pending.add(chain.UnreferencedMessage{ID: chain.MessageIDOf(raw), Raw: raw, Message: m,
		SeenAt: now.UTC().Truncate(time.Millisecond), EstMilestoneIndex: h.tip.Load() + 1}) {
		h.nudge()
	}
	return nil
}

// referenced drops a block a milestone referenced from the pending blocks. inx-mqtt's
// block metadata names the block as the REST form does ("blockId"); only that is read.
func (h *eventHub) referenced(payload []byte) error {
	var md tip25.BlockMetadataJSON
	if err := json.Unmarshal(payload, &md); err != nil {
		return fmt.Errorf("%w: %s: %w", errEvent, topicReferenced, err)
	}
	if md.BlockID == "" {
		return fmt.Errorf("%w: %s without a block ID", errEvent, topicReferenced)
	}
	id, err := chain.ParseMessageID(md.BlockID)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", errEvent, topicReferenced, err)
	}
	h.pending.referencedNow(id)
	return nil
}

// sawTip records a confirmed milestone the source learnt of.
func (h *eventHub) sawTip(index uint32) {
	for {
		cur := h.tip.Load()
		if index <= cur || h.tip.CompareAndSwap(cur, index) {
			return
		}
	}
}

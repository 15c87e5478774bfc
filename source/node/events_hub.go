package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
	tip     atomic.Uint32 // the highest confirmed milestone verified (Source.Latest)
	net     atomic.Pointer[chain.Network]
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

// Blocks refused before they become pending: what a node would not have gossiped.
var (
	ErrEventProtocolVersion = errors.New("block of another protocol version")
	ErrEventNetworkID       = errors.New("transaction for another network")
	ErrEventPoW             = errors.New("block below the network's minimum PoW score")
	ErrEventNoNetwork       = errors.New("block before the network was read")
)

// handle applies one event; an error means it was dropped. An event from a broker not
// trusted with data (one named by URL, without Config.EventsTrust) only wakes the
// follower, which reads what is new from the nodes.
func (h *eventHub) handle(topic string, payload []byte, now time.Time, trusted bool) error {
	switch topic {
	case topicConfirmed:
		return h.confirmed(payload)
	case topicBlocks:
		if !trusted {
			h.nudge()
			return nil
		}
		return h.block(payload, now)
	case topicReferenced:
		if !trusted {
			return nil
		}
		return h.referenced(payload)
	}
	return fmt.Errorf("%w: topic %q", errEvent, topic)
}

// eventReason names why an event was dropped, for the dropped events' counter.
func eventReason(err error) string {
	for _, r := range []struct {
		err    error
		reason string
	}{{ErrEventProtocolVersion, "protocol_version"}, {ErrEventNetworkID, "network_id"}, {ErrEventPoW, "pow"},
		{ErrEventNoNetwork, "network_unknown"}, {errEventsBusy, "busy"}} {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return "malformed"
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
	m, err := h.checkBlock(raw)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", errEvent, topicBlocks, err)
	}
	if m.MilestoneOf() != nil {
		return nil
	}
	if h.pending.add(chain.UnreferencedMessage{ID: chain.MessageIDOf(raw), Raw: raw, Message: m,
		SeenAt: now.UTC().Truncate(time.Millisecond), EstMilestoneIndex: nextIndex(h.tip.Load())}) {
		h.nudge()
	}
	return nil
}

// checkBlock decodes and validates a block as the pipeline does, and checks it against
// the network as a node does before gossiping it: protocol version, network ID of a
// transaction, and the minimum PoW score (a milestone's block is exempt: its signatures
// are what counts, and the source never keeps it pending).
func (h *eventHub) checkBlock(raw []byte) (*chain.Message, error) {
	net := h.net.Load()
	if net == nil {
		return nil, ErrEventNoNetwork
	}
	if len(raw) > 0 && raw[0] != net.Params.Version {
		return nil, fmt.Errorf("%w: %d (want %d)", ErrEventProtocolVersion, raw[0], net.Params.Version)
	}
	m, err := chain.DecodeMessage(raw)
	if err == nil {
		err = chain.ValidateMessage(m, raw)
	}
	if err != nil {
		return nil, err
	}
	if tx := m.TransactionOf(); tx != nil && tx.NetworkID != net.ID() {
		return nil, fmt.Errorf("%w: %d (want %d)", ErrEventNetworkID, tx.NetworkID, net.ID())
	}
	if m.MilestoneOf() == nil {
		if score := powScore(raw); score < float64(net.Params.MinPoWScore) {
			return nil, fmt.Errorf("%w: %.0f (want %d)", ErrEventPoW, score, net.Params.MinPoWScore)
		}
	}
	return m, nil
}

// nextIndex is the milestone after index, without wrapping past the last index.
func nextIndex(index uint32) uint32 {
	if index == math.MaxUint32 {
		return index
	}
	return index + 1
}

// knowNetwork sets the network event blocks are checked against.
func (h *eventHub) knowNetwork(net chain.Network) { h.net.Store(&net) }

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

package node

import (
	"slices"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Bounds of the blocks heard of by events and not referenced yet. A block unreferenced
// for pendingMaxAge is past any milestone's reach (Hornet's below-max-depth is 15
// milestones, about 75 s on Shimmer); the count caps memory at a burst (about 10 MB of
// typical blocks).
const (
	pendingMaxBlocks = 20000
	pendingMaxAge    = 10 * time.Minute
	referencedKept   = 1 << 16
)

// pendingBlocks are the blocks the event API announced and no milestone referenced yet,
// oldest first. Blocks known referenced (by an event, or in a cone this source read) are
// dropped and remembered a while, so a late announcement of one is not taken as pending.
type pendingBlocks struct {
	mu         sync.Mutex
	byID       map[chain.MessageID]chain.UnreferencedMessage
	order      []chain.MessageID
	referenced map[chain.MessageID]struct{}
	refOrder   []chain.MessageID
}

func newPendingBlocks() *pendingBlocks {
	return &pendingBlocks{byID: map[chain.MessageID]chain.UnreferencedMessage{},
		referenced: map[chain.MessageID]struct{}{}}
}

// add keeps um unless it is known, or known referenced; it evicts the oldest blocks
// beyond the bounds.
func (p *pendingBlocks) add(um chain.UnreferencedMessage) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.byID[um.ID]; ok {
		return false
	}
	if _, ok := p.referenced[um.ID]; ok {
		return false
	}
	p.byID[um.ID] = um
	p.order = append(p.order, um.ID)
	p.evict(um.SeenAt.Add(-pendingMaxAge))
	return true
}

// evict drops the oldest blocks seen before cutoff, and the oldest beyond
// pendingMaxBlocks, with the IDs of blocks referenced meanwhile ahead of them.
func (p *pendingBlocks) evict(cutoff time.Time) {
	n := 0
	for n < len(p.order) {
		um, ok := p.byID[p.order[n]]
		if ok && len(p.byID) <= pendingMaxBlocks && !um.SeenAt.Before(cutoff) {
			break
		}
		delete(p.byID, p.order[n])
		n++
	}
	p.order = slices.Delete(p.order, 0, n)
}

// referencedNow drops the blocks a milestone referenced and remembers them.
func (p *pendingBlocks) referencedNow(ids ...chain.MessageID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		delete(p.byID, id)
		if _, ok := p.referenced[id]; ok {
			continue
		}
		p.referenced[id] = struct{}{}
		p.refOrder = append(p.refOrder, id)
	}
	if over := len(p.refOrder) - referencedKept; over > 0 {
		for _, id := range p.refOrder[:over] {
			delete(p.referenced, id)
		}
		p.refOrder = slices.Delete(p.refOrder, 0, over)
	}
}

// list is the pending blocks, oldest first.
func (p *pendingBlocks) list() []chain.UnreferencedMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]chain.UnreferencedMessage, 0, len(p.byID))
	for _, id := range p.order {
		if um, ok := p.byID[id]; ok {
			out = append(out, um)
		}
	}
	return out
}

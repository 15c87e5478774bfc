package node

import (
	"slices"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/generations"
)

// Bounds of the blocks heard of by events and not referenced yet. A block unreferenced
// for pendingMaxAge is past any milestone's reach (Hornet's below-max-depth is 15
// milestones, about 75 s on Shimmer); the count and the bytes cap memory at a burst
// (each block is held raw and decoded, about twice its size).
const (
	pendingMaxBlocks = 20000
	pendingMaxBytes  = 32 << 20
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
	bytes      int                                         // the raw bytes of the blocks in byID
	referenced *generations.Map[chain.MessageID, struct{}] // the last referencedKept/2 to referencedKept
}

func newPendingBlocks() *pendingBlocks {
	return &pendingBlocks{byID: map[chain.MessageID]chain.UnreferencedMessage{},
		referenced: generations.New[chain.MessageID, struct{}](referencedKept / 2)}
}

// add keeps um unless it is known, or known referenced; it evicts the oldest blocks
// beyond the bounds.
func (p *pendingBlocks) add(um chain.UnreferencedMessage) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.byID[um.ID]; ok {
		return false
	}
	if _, ok := p.referenced.Get(um.ID); ok {
		return false
	}
	p.byID[um.ID] = um
	p.bytes += len(um.Raw)
	p.order = append(p.order, um.ID)
	p.evict(um.SeenAt.Add(-pendingMaxAge))
	return true
}

// evict drops the oldest blocks seen before cutoff, and the oldest beyond
// pendingMaxBlocks or pendingMaxBytes, with the IDs of blocks referenced meanwhile
// ahead of them.
func (p *pendingBlocks) evict(cutoff time.Time) {
	n := 0
	for n < len(p.order) {
		um, ok := p.byID[p.order[n]]
		if ok && len(p.byID) <= pendingMaxBlocks && p.bytes <= pendingMaxBytes && !um.SeenAt.Before(cutoff) {
			break
		}
		p.drop(p.order[n])
		n++
	}
	p.order = slices.Delete(p.order, 0, n)
}

// referencedNow drops the blocks a milestone referenced and remembers them.
func (p *pendingBlocks) referencedNow(ids ...chain.MessageID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		p.drop(id)
		p.referenced.Put(id, struct{}{})
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

// drop forgets a pending block, if held.
func (p *pendingBlocks) drop(id chain.MessageID) {
	if um, ok := p.byID[id]; ok {
		p.bytes -= len(um.Raw)
		delete(p.byID, id)
	}
}

// size is the count and raw bytes of the pending blocks.
func (p *pendingBlocks) size() (count, bytes int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byID), p.bytes
}

package node

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/generations"
)

// reachedCacheSize bounds the blocks a Source remembers the walks reached: a cone walk
// meets the cones of the few milestones before it, and real cones hold tens to hundreds
// of blocks, so the 2^14 to 2^15 blocks kept cover hundreds of milestones in about 3 MB.
const reachedCacheSize = 1 << 15

// reachedCache remembers, for the blocks cone walks reached, the lowest milestone whose
// walk reached them. A walk starts from the parents of a milestone whose signatures
// passed and follows only parents inside bytes that hash to the block asked, so a block
// it reaches is in that milestone's past: that milestone or an earlier one referenced
// it. The walk of any later milestone therefore ends at such a block without asking the
// node, whatever the nodes answer. It forgets the blocks reached longest ago first (two
// generations of half its size) and is shared by the walks of a Source, which run at
// once and out of order.
type reachedCache struct {
	mu sync.Mutex
	m  *generations.Map[chain.MessageID, uint32]
}

func newReachedCache(size int) *reachedCache {
	return &reachedCache{m: generations.New[chain.MessageID, uint32](size / 2)}
}

// reach records that the walk of milestone index reached id. It tells whether the walk
// of an earlier milestone reached id before: then id is outside index's cone. A walk of
// index itself or of a later milestone tells nothing about index's cone.
func (c *reachedCache) reach(id chain.MessageID, index uint32) (earlier bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if by, ok := c.m.Get(id); ok && by < index {
		c.m.Put(id, by) // met again: kept young, as later walks may meet it too
		return true
	}
	c.m.Put(id, index)
	return false
}

// earlier tells whether the walk of a milestone below index reached id, without
// recording anything.
func (c *reachedCache) earlier(id chain.MessageID, index uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	by, ok := c.m.Get(id)
	return ok && by < index
}

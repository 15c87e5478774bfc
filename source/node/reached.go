package node

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// reachedCacheSize bounds the blocks a Source remembers the walks reached: a cone walk
// meets the cones of the few milestones before it, and real cones hold tens to hundreds
// of blocks, so this covers hundreds of milestones in a few MB.
const reachedCacheSize = 1 << 15

// reachedCache remembers, for the blocks cone walks reached, the lowest milestone whose
// walk reached them. A walk starts from the parents of a milestone whose signatures
// passed and follows only parents inside bytes that hash to the block asked, so a block
// it reaches is in that milestone's past: that milestone or an earlier one referenced
// it. The walk of any later milestone therefore ends at such a block without asking the
// node, whatever the nodes answer. It forgets the oldest entries first and is shared by
// the walks of a Source, which run at once and out of order.
type reachedCache struct {
	mu   sync.Mutex
	m    map[chain.MessageID]uint32
	ring []chain.MessageID
	next int
}

func newReachedCache(size int) *reachedCache {
	return &reachedCache{m: make(map[chain.MessageID]uint32, size), ring: make([]chain.MessageID, size)}
}

// reach records that the walk of milestone index reached id. It tells whether the walk
// of an earlier milestone reached id before: then id is outside index's cone. A walk of
// index itself or of a later milestone tells nothing about index's cone.
func (c *reachedCache) reach(id chain.MessageID, index uint32) (earlier bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if by, ok := c.m[id]; ok {
		if by < index {
			return true
		}
		c.m[id] = index
		return false
	}
	delete(c.m, c.ring[c.next])
	c.ring[c.next] = id
	c.m[id] = index
	c.next = (c.next + 1) % len(c.ring)
	return false
}

// earlier tells whether the walk of a milestone below index reached id, without
// recording anything.
func (c *reachedCache) earlier(id chain.MessageID, index uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	by, ok := c.m[id]
	return ok && by < index
}

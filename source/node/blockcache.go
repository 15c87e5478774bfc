package node

import (
	"context"
	"errors"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// blockCacheBytes bounds the bytes a Source keeps of blocks fetched for one walk that
// another walk may need: the walks of several milestones run at once and meet each
// other's cones.
const blockCacheBytes = 32 << 20

// blockCache holds block bytes between the walks of a Source: a walk that reaches a
// block of an earlier milestone's cone before that milestone's walk does fetches it
// once, and the earlier walk takes it from here. Bytes are kept by the ID they hash to,
// so they are the same whichever node gave them. A block being fetched is waited for,
// not asked twice. A walk drops what it fetched when it ends (drop); the oldest blocks
// go first when the cache is full.
type blockCache struct {
	mu    sync.Mutex
	m     map[chain.MessageID]*cachedBlock
	order []chain.MessageID
	size  int
}

type cachedBlock struct {
	done chan struct{}
	raw  []byte
	err  error
}

func newBlockCache() *blockCache {
	return &blockCache{m: make(map[chain.MessageID]*cachedBlock)}
}

// get returns id's bytes from the cache, from a fetch under way, or from fetch (which
// must check that the bytes hash to id).
func (c *blockCache) get(ctx context.Context, id chain.MessageID, fetch func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.m[id]
	if !ok {
		b = &cachedBlock{done: make(chan struct{})}
		c.m[id] = b
		c.order = append(c.order, id)
	}
	c.mu.Unlock()
	if !ok {
		b.raw, b.err = fetch()
		c.fetched(id, b)
		return b.raw, b.err
	}
	select {
	case <-b.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if b.err != nil && (errors.Is(b.err, context.Canceled) || errors.Is(b.err, context.DeadlineExceeded)) && ctx.Err() == nil {
		return c.get(ctx, id, fetch) // the walk that fetched it stopped; this one goes on
	}
	return b.raw, b.err
}

// fetched ends a fetch: an answer is kept (and the oldest dropped while over the
// bound), a failure forgotten so that the next get asks again.
func (c *blockCache) fetched(id chain.MessageID, b *cachedBlock) {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(b.done)
	if b.err != nil {
		if c.m[id] == b {
			delete(c.m, id)
		}
		return
	}
	c.size += len(b.raw)
	for c.size > blockCacheBytes && len(c.order) > 0 {
		c.forget(c.order[0])
		c.order = c.order[1:]
	}
}

// drop forgets the blocks a walk fetched: its cone is known and the walks that met it
// took what they needed.
func (c *blockCache) drop(ids []chain.MessageID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		c.forget(id)
	}
	if len(c.order) > 2*len(c.m)+1024 {
		kept := c.order[:0]
		for _, id := range c.order {
			if _, ok := c.m[id]; ok {
				kept = append(kept, id)
			}
		}
		c.order = kept
	}
}

// forget removes id's finished entry, under mu.
func (c *blockCache) forget(id chain.MessageID) {
	b, ok := c.m[id]
	if !ok {
		return
	}
	select {
	case <-b.done:
		c.size -= len(b.raw)
		delete(c.m, id)
	default: // still being fetched: kept
	}
}

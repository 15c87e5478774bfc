package wallet

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// hintCache keeps the partition hints the syncs read, so that the pages of one walk
// read each address's hints once. An entry read while the ledger index was L serves a
// request answered at an index up to L: every partition holding an output created by
// then had its hint written with that output's milestone, before L was synced. Two
// generations bound it: when the newer one is full, it becomes the older and the older
// goes.
type hintCache struct {
	mu       sync.Mutex
	cur, old map[string]hintEntry
}

type hintEntry struct {
	hints  []store.AddressHint
	readAt uint32 // the ledger index when they were read
}

// hintCacheSize bounds a generation: about 100 bytes an address.
const hintCacheSize = 100_000

func newHintCache() *hintCache {
	return &hintCache{cur: map[string]hintEntry{}, old: map[string]hintEntry{}}
}

// get is the address's hints if an entry read by ledger index at holds them.
func (c *hintCache) get(address string, at uint32) ([]store.AddressHint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cur[address]
	if !ok {
		e, ok = c.old[address]
	}
	return e.hints, ok && at <= e.readAt
}

func (c *hintCache) put(address string, e hintEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cur) >= hintCacheSize {
		c.cur, c.old = map[string]hintEntry{}, c.cur
	}
	c.cur[address] = e
}

package wallet

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// hintCache keeps the partition hints the syncs read, so that the pages of a walk read
// each address's hints once while the ledger stands still. An entry serves a request
// that finds the ledger's coverage as the entry's read found it (ledgerState): the
// writes that add hints (a milestone, a backfill, a bootstrap) all move it. Two
// generations bound it: when the newer one is full, it becomes the older and the older
// goes.
type hintCache struct {
	mu       sync.Mutex
	cur, old map[string]hintEntry
}

type hintEntry struct {
	hints []store.AddressHint
	state ledgerState // the ledger's when they were read
}

// hintCacheSize bounds a generation: some hundreds of bytes an address.
const hintCacheSize = 100_000

func newHintCache() *hintCache {
	return &hintCache{cur: map[string]hintEntry{}, old: map[string]hintEntry{}}
}

// get is the address's hints if an entry read in ledger state at holds them.
func (c *hintCache) get(address string, at ledgerState) ([]store.AddressHint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cur[address]
	if !ok {
		e, ok = c.old[address]
	}
	return e.hints, ok && e.state == at
}

func (c *hintCache) put(address string, e hintEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cur) >= hintCacheSize {
		c.cur, c.old = map[string]hintEntry{}, c.cur
	}
	c.cur[address] = e
}

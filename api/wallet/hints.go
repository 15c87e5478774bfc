package wallet

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/internal/generations"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// hintCache keeps the partition hints the syncs read, so that the pages of a walk read
// each address's hints once while the ledger stands still. An entry serves a request
// that finds the ledger's coverage as the entry's read found it (ledgerState): the
// writes that add hints (a milestone, a backfill, a bootstrap) all move it. Its memory is
// bounded by two generations of hintCacheSize addresses (generations.Map).
type hintCache struct {
	mu sync.Mutex
	m  *generations.Map[string, hintEntry]
}

type hintEntry struct {
	hints []store.AddressHint
	state ledgerState // the ledger's when they were read
}

// hintCacheSize bounds a generation: some hundreds of bytes an address.
const hintCacheSize = 100_000

func newHintCache() *hintCache {
	return &hintCache{m: generations.New[string, hintEntry](hintCacheSize)}
}

// get is the address's hints if an entry read in ledger state at holds them.
func (c *hintCache) get(address string, at ledgerState) ([]store.AddressHint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m.Get(address)
	return e.hints, ok && e.state == at
}

func (c *hintCache) put(address string, e hintEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m.Put(address, e)
}

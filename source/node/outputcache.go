package node

import (
	"bytes"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/generations"
)

// DefaultOutputCache is the outputs a Source keeps by default: under 6 MB of heap, the
// outputs of the last hours at a live network's pace, full within the first thousands of
// milestones. More keeps the node's load lower on a ledger that outgrows it.
const DefaultOutputCache = 1 << 14

// outputCache keeps the newest created outputs until they are spent, forgetting those
// created longest ago first: an output is spent once, so a spent one is never asked for
// again (a milestone read anew takes it from the keyspace or the node). It holds at most
// its size of outputs (two generations of half its size), whatever the ledger's age, each
// in its encoded bytes: an entry costs half the memory of a decoded output.
type outputCache struct {
	mu sync.Mutex
	m  *generations.Map[chain.OutputID, outputEntry]
}

// outputEntry is a created output as the cache holds it.
type outputEntry struct {
	raw            []byte
	block          chain.MessageID
	milestoneIndex uint32
	unix           int64
}

func newOutputCache(size int) *outputCache {
	return &outputCache{m: generations.New[chain.OutputID, outputEntry](max(size/2, 1))}
}

// get returns the output id as it was added: its bytes decoded, its timestamp to the
// second in UTC, as milestones carry it. An entry that does not decode is a miss: the
// output is then read as if never cached.
func (c *outputCache) get(id chain.OutputID) (chain.LedgerOutput, bool) {
	c.mu.Lock()
	e, ok := c.m.Get(id)
	c.mu.Unlock()
	if !ok {
		return chain.LedgerOutput{}, false
	}
	o, err := chain.DecodeOutput(e.raw)
	if err != nil {
		return chain.LedgerOutput{}, false
	}
	return chain.LedgerOutput{OutputID: id, MessageID: e.block, Output: o, MilestoneIndex: e.milestoneIndex,
		Timestamp: time.Unix(e.unix, 0).UTC()}, true
}

func (c *outputCache) add(created []chain.LedgerOutput) {
	entries := make([]outputEntry, len(created))
	for i, lo := range created {
		entries[i] = outputEntry{raw: bytes.Clone(chain.EncodeOutput(lo.Output)), block: lo.MessageID,
			milestoneIndex: lo.MilestoneIndex, unix: lo.Timestamp.Unix()}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, lo := range created {
		if _, ok := c.m.Get(lo.OutputID); !ok {
			c.m.Put(lo.OutputID, entries[i])
		}
	}
}

// forget drops spent outputs.
func (c *outputCache) forget(spent []chain.OutputID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range spent {
		c.m.Delete(id)
	}
}

// len is the outputs held.
func (c *outputCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m.Len()
}

package ingest

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// PendingTTL is how long rows of unreferenced messages live (seed: USING TTL 86400).
const PendingTTL = 86400

// builder accumulates the writes and hints of one unit of work (a milestone, or a
// batch of unreferenced messages).
type builder struct {
	rowConfig
	writes []store.Write
	hints  *hints.Set
}

// rowConfig is what building rows needs beyond the milestone.
type rowConfig struct {
	rangeOf func(uint32) int32 // the ms_range_id of a milestone
	hrp     string             // addresses are stored in bech32 under the network's HRP
	start   uint32             // the first milestone indexed (see spentBeforeStart)
}

func newBuilder(rc rowConfig) *builder {
	return &builder{rowConfig: rc, hints: hints.NewSet()}
}

// add appends one write; partition "" means it shares its partition with no other write.
func (b *builder) add(st *cql.Statement, ts int64, partition string, args ...any) {
	b.writes = append(b.writes, store.Write{St: st, Args: args, Partition: partition, TS: ts})
}

// where is the milestone context rows are written with: confirmed rows use the
// milestone's index, range and timestamp; pending rows the estimated index, the pending
// range and the time the message was seen.
type where struct {
	index uint32
	rng   int32
	at    time.Time
	ts    int64
	state any // inclusion state (int8) or gocql.UnsetValue for pending rows
	ttl   int // 0: no TTL
}

func (w where) pending() bool { return w.ttl > 0 }

// opt binds an optional value: gocql.UnsetValue leaves the column untouched instead of
// writing a tombstone as nil would.
func opt[T comparable](v T) any {
	var zero T
	if v == zero {
		return unset
	}
	return v
}

// addr is an address as stored: bech32 under the network's HRP ("" when absent).
func (b *builder) addr(a *chain.Address) string {
	if a == nil {
		return ""
	}
	return a.Bech32(b.hrp)
}

func tagText(tag []byte) string {
	if len(tag) == 0 {
		return ""
	}
	return hexBytes(tag)
}

func variantOf(m *chain.Message) string {
	switch m.Payload.(type) {
	case *chain.Transaction:
		return "transaction"
	case *chain.MilestonePayload:
		return "milestone"
	case *chain.TaggedData:
		return "tagged_data"
	}
	return "none"
}

func parentStrings(m *chain.Message) []string {
	out := make([]string, len(m.Parents))
	for i, p := range m.Parents {
		out[i] = p.String()
	}
	return out
}

// messageTag is the tag a message is indexed under: its tagged-data payload's, or the
// tagged data inside its transaction.
func messageTag(m *chain.Message) []byte {
	switch p := m.Payload.(type) {
	case *chain.TaggedData:
		return p.Tag
	case *chain.Transaction:
		if p.Payload != nil {
			return p.Payload.Tag
		}
	}
	return nil
}

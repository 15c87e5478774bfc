package store

import (
	"math"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// PendingTTL is how long rows of unreferenced messages live (seed: USING TTL 86400).
const PendingTTL = 86400

// WriteSet is the rows of one unit of work (a milestone, or a batch of messages not
// referenced yet), ready for Apply, and the partition hints they need.
type WriteSet struct {
	Writes []Write
	Hints  *HintSet
}

// builder builds a WriteSet from the chain's types (write_*.go, one file per table
// family, each beside the reader of the same rows).
type builder struct {
	WriteSet
	chunk uint32 // milestones per ms_range_id partition
	hrp   string // addresses are stored in bech32 under the network's HRP
	start uint32 // the first milestone indexed (see createdBeforeStart)
	// snapshot leaves out the booking milestone's ledger update row of the outputs it
	// writes (SnapshotOutputWrites).
	snapshot bool
}

func (st *Store) newBuilder(start uint32) *builder {
	return &builder{WriteSet: WriteSet{Hints: NewHintSet()}, chunk: st.ChunkSize, hrp: st.HRP(), start: start}
}

func (b *builder) rangeOf(index uint32) int32 { return RangeID(index, b.chunk) }

// add appends one write; partition "" means it shares its partition with no other write.
func (b *builder) add(st *cql.Statement, ts int64, partition string, args ...any) {
	b.Writes = append(b.Writes, Write{stmt: st, Args: args, Partition: partition, TS: ts})
}

// addRow appends the write of a record (a pointer to it, see binds), extra values after
// its columns.
func (b *builder) addRow(st *cql.Statement, ts int64, partition string, rec any, extra ...any) {
	b.add(st, ts, partition, binds(st, rec, extra...)...)
}

// where is the milestone context rows are written with: confirmed rows use the
// milestone's index, range and timestamp; pending rows the estimated index, the pending
// range and the time the message was seen.
type where struct {
	index uint32
	rng   int32
	at    time.Time
	ts    int64
	state *int8 // inclusion state; nil for pending rows
	ttl   int   // 0: no TTL
}

func (w where) pending() bool { return w.ttl > 0 }

// ttlArgs is the TTL bound after a pending row's columns (none for a confirmed row).
func (w where) ttlArgs() []any {
	if w.pending() {
		return []any{w.ttl}
	}
	return nil
}

// addr is an address as stored: bech32 under the network's HRP ("" when absent).
func (b *builder) addr(a *chain.Address) string {
	if a == nil {
		return ""
	}
	return a.Bech32(b.hrp)
}

// amount stores a uint64 in a bigint column; real supplies are far below 2^63 and
// validation refuses larger amounts, the clamp only keeps a bad value from wrapping.
func amount(v uint64) int64 { return int64(min(v, math.MaxInt64)) }

func ptr[T any](v T) *T { return &v }

// Package store is the one door to the indexer's tables: every row is written and read
// here, through the named statements of package cql. It builds a milestone's rows from
// the chain's types (write_*.go, each beside the read_*.go of the same table), runs
// them with a bounded, partition-aware executor, and offers typed readers (API,
// analytics), hint, lease and metadata rows, and the classification of database errors.
// Its session is its own: callers ask the store, never the driver.
package store

import (
	"context"
	"sync/atomic"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// DefaultChunkSize is the number of milestones per ms_range_id partition (as the original Chronicle).
const DefaultChunkSize = 250000

// Store is a session plus the keyspace's partitioning and network.
type Store struct {
	s         *cql.Session
	ChunkSize uint32
	network   atomic.Pointer[NetworkRecord]
	sum       summarizer                     // gathers sync changes for the sync summary (sync_flush.go)
	bootstrap atomic.Pointer[bootstrapRead]  // the last read of the bootstrap record (ledger_coverage_cache.go)
	rebuilt   rebuiltView                    // the sync view read from the whole table (sync_view_cache.go)
	times     milestoneTimes                 // milestone timestamps read so far (milestone_time.go)
	protocol  atomic.Pointer[ProtocolRecord] // the protocol record last read or recorded (KnownProtocol)
}

// New wraps a session; chunkSize is the keyspace's recorded chunk size (see EnsureChunkSize).
func New(s *cql.Session, chunkSize uint32) *Store {
	if chunkSize == 0 {
		chunkSize = DefaultChunkSize
	}
	return &Store{s: s, ChunkSize: chunkSize}
}

// Close closes the store's session.
func (st *Store) Close() {
	st.stopSummarizer()
	st.s.Close()
}

// OnRetry has f told about each retried statement (by name), for metrics and logs.
// Set it before the store is used.
func (st *Store) OnRetry(f func(statement string, attempt int, err error)) {
	st.s.OnRetry = func(s *cql.Statement, attempt int, err error) { f(s.Name, attempt, err) }
}

// RangeID is the ms_range_id partition of a milestone index.
func (st *Store) RangeID(index uint32) int32 { return RangeID(index, st.ChunkSize) }

// RangeID is milestone_index / chunkSize.
func RangeID(index, chunkSize uint32) int32 { return int32(index / chunkSize) }

// Write phases: the low digits of a chain-order timestamp, so that for one milestone
// a pending write < its confirmation < a later spend.
const (
	PhasePending   = 1
	PhaseConfirmed = 2
	PhaseSpent     = 3
)

// Timestamp is the client timestamp (µs) of a write made for milestone index in a phase.
// Replaying an older milestone can never overwrite what a newer one wrote.
func Timestamp(index uint32, phase int) int64 { return int64(index)*1000 + int64(phase) }

// Ping runs one cheap query: readiness probes and the API's 503s use it.
func (st *Store) Ping(ctx context.Context) error {
	var v string
	return st.s.Scan(ctx, cql.Ping, nil, &v)
}

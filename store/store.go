// Package store reads and writes the indexer's tables through the named statements of
// package cql: a bounded, partition-aware executor for write sets (ingest), metadata and
// lease rows (conditional updates), and typed readers (API, analytics).
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
	S         *cql.Session
	ChunkSize uint32
	network   atomic.Pointer[NetworkRecord]
}

// New wraps a session; chunkSize is the keyspace's recorded chunk size (see EnsureChunkSize).
func New(s *cql.Session, chunkSize uint32) *Store {
	if chunkSize == 0 {
		chunkSize = DefaultChunkSize
	}
	return &Store{S: s, ChunkSize: chunkSize}
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
	return st.S.Scan(ctx, cql.Ping, nil, &v)
}

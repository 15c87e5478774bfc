package store

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// SyncSummaryConcern is the indexer_meta row that summarises the sync table (D-entry in
// docs/schema.md): its value is the synced ranges as JSON, its watermark a version that
// every replacement compares and sets, so concurrent writers never lose each other's
// changes. GET /sync and the ledger index read it instead of the sync rows, whose number
// grows with the milestones synced.
const SyncSummaryConcern = "sync_summary"

// Bounds of the summary and of the reads that complete it.
const (
	maxSummaryRanges  = 1000 // newest ranges kept; older ones are dropped and Truncated set
	tailMaxRows       = 5000 // sync rows past the summary read per partition before giving up on it
	tailMaxPartitions = 4
	summarySwapTries  = 8
)

var (
	// errTailTooLong: the summary cannot be completed by a bounded read (it is missing,
	// or the rows past it exceed the bound); the whole sync table must be read.
	errTailTooLong       = errors.New("sync rows past the summary exceed the bounded read")
	errSummaryContended  = errors.New("sync summary: compare-and-set lost too many times")
	errSummaryUnreadable = errors.New("sync summary row does not decode")
)

// syncSummary is the summary row's value.
type syncSummary struct {
	Oldest    uint32  `json:"oldest"`
	Newest    uint32  `json:"newest"` // the high mark: rows past it are read from the sync table
	Ranges    []Range `json:"ranges"` // normalized, the newest maxSummaryRanges
	Truncated bool    `json:"truncated,omitempty"`
}

// readSummary reads the summary and its version (0: no summary row yet).
func (st *Store) readSummary(ctx context.Context) (syncSummary, int64, error) {
	return readVersioned[syncSummary](ctx, st, SyncSummaryConcern, errSummaryUnreadable)
}

// swapSummary stores next if the row is still at version (0: absent).
func (st *Store) swapSummary(ctx context.Context, next syncSummary, version int64, node string) (bool, error) {
	return st.swapVersioned(ctx, SyncSummaryConcern, next, version, node)
}

// syncTail reads the synced milestones at or after from: the rows the summary does not
// hold yet. It walks partitions upwards and stops at the first empty one after the
// first; errTailTooLong when the rows exceed its bound (the summary lags far behind).
func (st *Store) syncTail(ctx context.Context, from uint32) ([]uint32, error) {
	var out []uint32
	first := st.RangeID(from)
	for p := first; p < first+tailMaxPartitions; p++ {
		lo := max(uint64(from), uint64(p)*uint64(st.ChunkSize))
		if lo > math.MaxInt32 {
			return out, nil
		}
		hi := uint64(p+1) * uint64(st.ChunkSize)
		rows, next, err := cql.RecordPage[SyncRow](ctx, st.s, cql.SyncRange, []any{p, int32(lo), clampInt32(hi)}, tailMaxRows, nil)
		if err != nil {
			return nil, err
		}
		if len(next) > 0 || len(out)+len(rows) > tailMaxRows {
			return nil, errTailTooLong
		}
		if len(rows) == 0 && p > first {
			return out, nil
		}
		for _, r := range rows {
			out = append(out, r.Index)
		}
	}
	return nil, errTailTooLong
}

// withTail merges the tail read past the summary's high mark into its ranges. Without a
// summary row (version 0) there is no mark to read past: the sync rows may start in
// any partition (an indexer started at a recent milestone), so it asks for a full read.
func (st *Store) withTail(ctx context.Context, s syncSummary, version int64) (syncSummary, error) {
	if version == 0 {
		return syncSummary{}, errTailTooLong
	}
	if s.Newest == math.MaxUint32 {
		return s, nil
	}
	tail, err := st.syncTail(ctx, s.Newest+1)
	if err != nil {
		return syncSummary{}, err
	}
	if len(tail) == 0 {
		return s, nil
	}
	return capped(normalize(append(slices.Clone(s.Ranges), rangesOf(tail)...)), s), nil
}

// capped keeps the newest maxSummaryRanges of rs and derives the span.
func capped(rs []Range, prev syncSummary) syncSummary {
	s := syncSummary{Ranges: rs, Truncated: prev.Truncated}
	if len(rs) > maxSummaryRanges {
		s.Ranges, s.Truncated = rs[len(rs)-maxSummaryRanges:], true
	}
	if len(s.Ranges) == 0 {
		return s
	}
	s.Oldest, s.Newest = s.Ranges[0].From, s.Ranges[len(s.Ranges)-1].To
	if s.Truncated && prev.Oldest != 0 && prev.Oldest < s.Oldest {
		s.Oldest = prev.Oldest
	}
	return s
}

// SyncView is GET /sync's answer from the summary plus the sync rows past its high mark:
// two reads whatever the number of milestones synced, exact for the rows past the high
// mark, and for changes below it as soon as their writer flushed (within a second). When
// the summary is missing (a keyspace indexed before it) or far behind, it serves the
// view of the whole sync table (Status) from memory (rebuiltView) and writes nothing:
// storing the summary is the indexer's (RebuildSyncSummary, FlushSyncSummary), so a
// role that may only read serves it too.
func (st *Store) SyncView(ctx context.Context) (SyncStatus, error) {
	s, version, err := st.readSummary(ctx)
	if err == nil {
		s, err = st.withTail(ctx, s, version)
	}
	if errors.Is(err, errTailTooLong) || errors.Is(err, errSummaryUnreadable) {
		return st.rebuilt.view(ctx, st)
	}
	if err != nil {
		return SyncStatus{}, err
	}
	return statusOf(s), nil
}

func statusOf(s syncSummary) SyncStatus {
	return SyncStatus{Oldest: s.Oldest, Newest: s.Newest, Synced: s.Ranges, Gaps: gapsBetween(s.Ranges), Truncated: s.Truncated}
}

// SyncTip is SyncSpan from the summary (SyncView), in two reads: the newest synced
// milestone, which is not the advertised ledger index when a gap lies below it (the API
// reads LedgerCoverage). Its Partitions may include ones without sync rows when the
// summary is truncated (a superset costs an empty read each).
func (st *Store) SyncTip(ctx context.Context) (SyncSpan, error) {
	v, err := st.SyncView(ctx)
	if err != nil {
		return SyncSpan{}, err
	}
	if len(v.Synced) == 0 {
		return SyncSpan{}, ErrNothingSynced
	}
	span := SyncSpan{Oldest: v.Oldest, Newest: v.Newest}
	if v.Truncated {
		for p := st.RangeID(v.Oldest); p <= st.RangeID(v.Newest); p++ {
			span.Partitions = append(span.Partitions, p)
		}
		return span, nil
	}
	for _, r := range v.Synced {
		for p := st.RangeID(r.From); p <= st.RangeID(r.To); p++ {
			if n := len(span.Partitions); n == 0 || span.Partitions[n-1] < p {
				span.Partitions = append(span.Partitions, p)
			}
		}
	}
	return span, nil
}

// RebuildSyncSummary recomputes the summary from the whole sync table (Status), stores
// it and returns the table's status: for keyspaces indexed before the summary, and after
// a crash lost a node's unflushed changes. Its cost grows with the table, as Status's does.
func (st *Store) RebuildSyncSummary(ctx context.Context, node string) (SyncStatus, error) {
	for range summarySwapTries {
		_, version, _, err := st.Meta(ctx, SyncSummaryConcern) // the version only: the value may not decode
		if err != nil && !errors.Is(err, ErrNotFound) {
			return SyncStatus{}, err
		}
		full, err := st.Status(ctx)
		if err != nil {
			return SyncStatus{}, err
		}
		if applied, err := st.swapSummary(ctx, capped(full.Synced, syncSummary{}), version, node); err != nil || applied {
			return full, err
		}
	}
	return SyncStatus{}, errSummaryContended
}

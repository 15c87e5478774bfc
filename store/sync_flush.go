package store

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gocql/gocql"
)

// SummaryFlushEvery bounds how often a store rewrites the sync summary: the changes of
// its WriteSync and Unsync calls are gathered and flushed at most once per interval (and
// on Close, and by FlushSyncSummary).
const SummaryFlushEvery = time.Second

// summaryFlushTimeout bounds a background flush.
const summaryFlushTimeout = 10 * time.Second

// summarizer gathers the milestones whose sync row this store wrote or deleted since the
// last flush. A flush re-reads the sync table over exactly those (and past the high mark)
// rather than trusting what it was told: a row another node deleted or rewrote meanwhile
// is summarised as the table has it.
type summarizer struct {
	mu      sync.Mutex
	touched []Range
	timer   *time.Timer
	closed  bool
	flushMu sync.Mutex // one flush at a time per store
}

// touchSync records a change to index's sync row and arms the flush timer.
func (st *Store) touchSync(index uint32) {
	s := &st.sum
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touched = append(s.touched, Range{index, index})
	if len(s.touched) > 1024 {
		s.touched = normalize(s.touched)
	}
	if s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(SummaryFlushEvery, st.flushInBackground)
	}
}

// take hands the gathered changes to a flush.
func (s *summarizer) take() []Range {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := normalize(s.touched)
	s.touched = nil
	return t
}

func (st *Store) flushInBackground() {
	st.sum.mu.Lock()
	st.sum.timer = nil
	st.sum.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), summaryFlushTimeout)
	defer cancel()
	_ = st.FlushSyncSummary(ctx) // on failure the changes are kept and retried by the next timer
}

// FlushSyncSummary folds this store's gathered sync changes, and the sync rows past the
// summary's high mark, into the summary now (POST /admin/resync calls it so its answer
// is visible at once). On failure the changes are kept for the next flush.
func (st *Store) FlushSyncSummary(ctx context.Context) error {
	st.sum.flushMu.Lock()
	defer st.sum.flushMu.Unlock()
	touched := st.sum.take()
	err := st.flushSummary(ctx, touched)
	if err != nil && !errors.Is(err, gocql.ErrSessionClosed) { // closed: no later flush can succeed
		st.retouch(touched)
	}
	return err
}

// retouch gives a failed flush's windows back, for the next timer.
func (st *Store) retouch(windows []Range) {
	s := &st.sum
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touched = append(s.touched, windows...)
	if s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(SummaryFlushEvery, st.flushInBackground)
	}
}

// flushSummary compares and sets the summary until it wins: each try reads the summary,
// the rows past its high mark and the touched windows, then swaps the version it read.
func (st *Store) flushSummary(ctx context.Context, touched []Range) error {
	for range summarySwapTries {
		cur, version, err := st.readSummary(ctx)
		if err == nil {
			cur, err = st.withTail(ctx, cur, version)
		}
		if errors.Is(err, errTailTooLong) || errors.Is(err, errSummaryUnreadable) {
			_, err = st.RebuildSyncSummary(ctx, "flush")
			return err
		}
		if err != nil {
			return err
		}
		next, err := st.resummarise(ctx, cur, touched)
		if err != nil {
			return err
		}
		if applied, err := st.swapSummary(ctx, next, version, "flush"); err != nil || applied {
			return err
		}
	}
	return errSummaryContended
}

// resummarise replaces the summary's coverage of each touched window by the table's.
func (st *Store) resummarise(ctx context.Context, cur syncSummary, touched []Range) (syncSummary, error) {
	ranges := cur.Ranges
	for _, w := range touched {
		synced, err := st.Synced(ctx, w.From, w.To)
		if err != nil {
			return syncSummary{}, err
		}
		ranges = normalize(append(subtract(ranges, w), SyncedRanges(synced, w.From, w.To)...))
	}
	return capped(ranges, cur), nil
}

// stopSummarizer flushes what is gathered (bounded wait) and stops the timer: Close.
func (st *Store) stopSummarizer() {
	st.sum.mu.Lock()
	st.sum.closed = true
	if st.sum.timer != nil {
		st.sum.timer.Stop()
		st.sum.timer = nil
	}
	pending := len(st.sum.touched) > 0
	st.sum.mu.Unlock()
	if pending {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = st.FlushSyncSummary(ctx)
	}
}

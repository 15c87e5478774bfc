// Package ingest reads confirmed milestones (and unreferenced messages) from a source
// and writes every table: rows first, with bounded parallelism and chain-order
// timestamps, then a milestone's sync row last, only once all its writes were
// acknowledged. On start it reads sync, fills the gaps oldest first, then follows the tip.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
	"github.com/stardust-indexer/stardust-indexer/internal/wait"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Pipeline is one indexer node's ingest.
type Pipeline struct {
	src          source.Source
	st           *store.Store
	hw           *hints.Writer
	cfg          Config
	m            *Metrics
	log          *slog.Logger
	pendingFloor atomic.Uint32
	lastWritten  atomic.Uint32
	written      atomic.Int64
	lag          atomic.Int64 // the source's tip minus lastWritten, as last written
	lastGapTotal int
	progress     *progress
	extra        []RowsFunc
	seenPending  map[chain.MessageID]struct{}
	net          *chain.Network    // the source's network, recorded in the keyspace (resolveNetwork)
	writes       *adaptive.Limiter // every write group of every milestone in flight
	pool         *store.WritePool  // runs those groups, as many at once as writes allows
	unavailable  []store.Range     // milestones the source does not hold, as last read or written
	retriedAt    time.Time         // when the unavailable milestones were last asked for again
	anchored     bool              // the keyspace's anchor milestone is recorded (checkChain)
	writeCtx     context.Context   // milestone writes run under it (writesContext)
}

// New wires a pipeline. m may be nil (metrics not exported).
func New(src source.Source, st *store.Store, cfg Config, m *Metrics, log *slog.Logger) *Pipeline {
	cfg.defaults()
	if m == nil {
		m = NewMetrics(nil)
	}
	if log == nil {
		log = slog.Default()
	}
	p := &Pipeline{src: src, st: st, hw: hints.NewWriter(hintsKept), cfg: cfg, m: m, log: log,
		seenPending: map[chain.MessageID]struct{}{}}
	p.writes = p.newLimiter()
	p.pool = st.NewWritePool(p.writes)
	return p
}

// newLimiter is the pipeline's one write limiter, its limit exported as a gauge.
func (p *Pipeline) newLimiter() *adaptive.Limiter {
	if p.cfg.FixedWrites {
		p.m.WriteLimit.Set(float64(p.cfg.WriteParallel))
		return adaptive.Fixed(p.cfg.WriteParallel)
	}
	return adaptive.NewLimiter(p.cfg.WriteParallel, MinWrites, p.st.MaxInFlight(), func(limit int, latency time.Duration) {
		p.m.WriteLimit.Set(float64(limit))
		p.log.Debug("write limit", "limit", limit, "mean_latency", latency)
	})
}

// WriteLimit is the write groups in flight the limiter allows now.
func (p *Pipeline) WriteLimit() int { return p.writes.Limit() }

// WritesInFlight is the write groups in flight now (at most WriteLimit).
func (p *Pipeline) WritesInFlight() int { return p.pool.InFlight() }

func (p *Pipeline) node() string { return strconv.Itoa(int(p.cfg.NodeID)) }

// MilestoneError is a milestone the pipeline refused: nothing of it or after it was written.
type MilestoneError struct {
	Index uint32
	Err   error
}

func (e *MilestoneError) Error() string { return fmt.Sprintf("milestone %d: %v", e.Index, e.Err) }
func (e *MilestoneError) Unwrap() error { return e.Err }

// Run ingests until ctx ends (the milestones being written then finish, for up to
// StopGrace), the range given by StopAt is done, a milestone is
// refused, the source refuses a request (source.Refusal) or the keyspace indexes another
// network. Database and source outages pause it: it probes every few seconds and resumes
// from the sync table as soon as the database answers (backoff up to 30 s between
// attempts that fail anyway).
func (p *Pipeline) Run(ctx context.Context) error {
	wctx, stopWrites := p.writesContext(ctx)
	defer stopWrites()
	p.writeCtx = wctx
	defer p.startReadGuard(wctx)()
	if err := p.loadPendingFloor(ctx); err != nil {
		return fmt.Errorf("reading pending floor: %w", err)
	}
	p.rebuildSyncSummary(ctx)
	var backoff time.Duration
	var pausedAt time.Time // start of the current outage
	for {
		before := p.written.Load()
		err := p.runOnce(ctx)
		var refused *MilestoneError
		switch {
		case err == nil:
			p.flushSyncSummary(ctx)
			return ctx.Err()
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &refused) && errors.As(err, new(*chain.ValidationError)):
			p.m.Errors.WithLabelValues("validation").Inc()
			return err
		case errors.Is(err, store.ErrNetworkMismatch):
			p.m.Errors.WithLabelValues("network").Inc()
			return err
		case errorKind(err) == "database" && store.Denied(err):
			p.m.Errors.WithLabelValues("denied").Inc()
			p.log.Error("the database refused this role or connection: stopping", "error", err)
			return err
		case errors.As(err, new(*source.Refusal)):
			p.m.Errors.WithLabelValues("refused").Inc()
			p.log.Error("the source refused a request or gave a malformed answer: stopping", "error", err)
			return err
		}
		if pausedAt.IsZero() || p.written.Load() > before {
			// A new outage (or progress since the last pause): the backoff starts small and
			// the pause is timed from now.
			backoff, pausedAt = time.Second, time.Now()
		}
		p.m.Errors.WithLabelValues(errorKind(err)).Inc()
		p.m.Paused.Set(1)
		p.hw.Forget()
		p.m.HintsKnown.Set(0)
		p.log.Warn("ingest paused", "error", err, "retry_in", backoff)
		if err := p.awaitRetry(ctx, err, backoff); err != nil {
			return err
		}
		p.log.Info("ingest resuming", "paused_for", time.Since(pausedAt).Round(time.Millisecond))
		p.m.Paused.Set(0)
		backoff = min(backoff*2, 30*time.Second)
	}
}

// rebuildSyncSummary recomputes the sync summary from the whole sync table once per
// start: a node killed before its last flush (store.SummaryFlushEvery) may have left
// synced milestones out of it, which GET /sync would show as a gap. The pipeline reads
// all of sync on start anyway; a failure only delays the repair to the next start.
func (p *Pipeline) rebuildSyncSummary(ctx context.Context) {
	if _, err := p.st.RebuildSyncSummary(ctx, p.cfg.Owner); err != nil {
		p.log.Warn("could not rebuild the sync summary (GET /sync may show a gap a crash left until the next start)",
			"error", err)
	}
}

// flushSyncSummary writes the sync changes gathered since the last flush when a run
// reaches its end, so that the summary readers see (GET /sync, the ledger index of the
// API and the analytics) holds every milestone the run synced as soon as Run returns,
// not a flush interval later. On failure the store's timer retries.
func (p *Pipeline) flushSyncSummary(ctx context.Context) {
	if err := p.st.FlushSyncSummary(ctx); err != nil {
		p.log.Warn("could not flush the sync summary at the end of the run (the next flush retries)", "error", err)
	}
}

// awaitRetry waits d before the next attempt. After a database error it probes the
// database every 2 s meanwhile and cuts the wait short once a probe that failed succeeds:
// a database coming back is used within seconds, while an error the database keeps giving
// while it answers pings is retried only at the backoff's pace.
func (p *Pipeline) awaitRetry(ctx context.Context, cause error, d time.Duration) error {
	if errorKind(cause) != "database" {
		return wait.Sleep(ctx, d)
	}
	deadline, wasDown := time.Now().Add(d), false
	for time.Now().Before(deadline) {
		if err := wait.Sleep(ctx, min(2*time.Second, time.Until(deadline))); err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := p.st.Ping(pctx)
		cancel()
		if err != nil {
			wasDown = true
		} else if wasDown {
			return nil
		}
	}
	return nil
}

// runOnce fills the gaps up to the source's tip in the blocks this node can claim, then
// either stops (not following, or StopAt reached; in both cases only once the blocks other
// nodes held are synced too) or polls for new milestones.
func (p *Pipeline) runOnce(ctx context.Context) error {
	if err := p.resolveNetwork(ctx); err != nil {
		return err
	}
	if err := p.listMilestones(ctx); err != nil {
		return err
	}
	if err := p.loadUnavailable(ctx); err != nil {
		return err
	}
	floor, lastFull := p.cfg.Start, time.Now() // a full read of sync after every (re)start
	for {
		tip, err := p.tip(ctx)
		if err != nil {
			return err
		}
		if time.Since(lastFull) >= p.cfg.GapCheck {
			floor, lastFull = p.cfg.Start, time.Now()
			if err := p.loadUnavailable(ctx); err != nil {
				return err
			}
		}
		before := p.written.Load()
		skipped, err := p.fillGaps(ctx, floor, tip)
		if err != nil {
			return err
		}
		if len(skipped) == 0 {
			floor = max(floor, nextIndex(tip))
			if !p.cfg.Follow || (p.cfg.StopAt != 0 && tip >= p.cfg.StopAt) {
				return nil
			}
		} else {
			floor = skipped[0].From
		}
		if p.cfg.Follow && p.cfg.Unreferenced {
			if err := p.unreferencedIfHeld(ctx, tip); err != nil {
				return err
			}
		}
		if p.written.Load() > before && len(skipped) == 0 {
			continue // the tip may have moved on while writing
		}
		if err := p.awaitTip(ctx); err != nil {
			return err
		}
	}
}

// awaitTip waits a poll interval, or less when the source says a milestone may have
// been confirmed (source.Notifier): events start a milestone's fetch at once, polling
// stays the fallback when they are off or silent.
func (p *Pipeline) awaitTip(ctx context.Context) error {
	n, ok := p.src.(source.Notifier)
	if !ok || n.NewMilestones() == nil {
		return wait.Sleep(ctx, p.cfg.PollInterval)
	}
	t := time.NewTimer(p.cfg.PollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	case <-n.NewMilestones():
	}
	return nil
}

// resolveNetwork asks the source which network it serves, once, and records it in the
// keyspace, which refuses another network (store.ErrNetworkMismatch stops the pipeline).
func (p *Pipeline) resolveNetwork(ctx context.Context) error {
	if p.net != nil {
		return nil
	}
	net, err := p.src.Network(ctx)
	if err != nil {
		return &sourceError{fmt.Errorf("network: %w", err)}
	}
	if err := p.st.EnsureNetwork(ctx, net, p.cfg.Owner); err != nil {
		return err
	}
	if err := p.checkAnchor(ctx); err != nil {
		return err
	}
	p.log.Info("indexing network", "network", net.Name, "hrp", net.HRP, "milestone_keys", len(net.Keys.Ranges),
		"threshold", net.Keys.Threshold)
	p.net = &net
	return nil
}

// listMilestones lists in milestones_by_bucket the milestones a keyspace indexed before
// that table holds (once per keyspace: a read of its indexer_meta row after that).
func (p *Pipeline) listMilestones(ctx context.Context) error {
	n, err := p.st.FillMilestoneBuckets(ctx, p.cfg.Owner)
	if n > 0 {
		p.log.Info("listed the milestones indexed before milestones_by_bucket", "milestones", n)
	}
	return err
}

func (p *Pipeline) tip(ctx context.Context) (uint32, error) {
	tip, err := p.src.Latest(ctx)
	if err != nil {
		return 0, &sourceError{err}
	}
	if p.cfg.StopAt != 0 {
		tip = min(tip, p.cfg.StopAt)
	}
	return tip, nil
}

// fillGaps writes every milestone in [from, tip] without a sync row, oldest first, in the
// blocks this node can claim. skipped are the pieces other nodes held, oldest first.
func (p *Pipeline) fillGaps(ctx context.Context, from, tip uint32) (skipped []store.Range, err error) {
	if tip < from {
		return nil, nil
	}
	found, err := p.findGaps(ctx, from, tip)
	if err != nil {
		return nil, err
	}
	gaps, skip := p.skipUnavailable(found)
	p.startProgress(gaps, tip)
	for piece := range splitAtBlocks(gaps, p.cfg.Claim) {
		elsewhere, err := p.fillPiece(ctx, piece, tip, skip)
		if err != nil {
			return skipped, err
		}
		if elsewhere {
			skipped = append(skipped, piece)
		}
	}
	p.progress.done()
	return skipped, nil
}

// findGaps lists the milestones of [from, tip] without a sync row. A span wider than a
// block (the gap check from Start) is read from the sync summary (store.GapsIn), whose
// cost does not grow with the milestones synced; a narrower one (the tip) from the sync
// rows. Each piece is read again from the sync rows under its lease before writing.
func (p *Pipeline) findGaps(ctx context.Context, from, tip uint32) ([]store.Range, error) {
	if uint64(tip)-uint64(from) >= uint64(p.cfg.Claim) {
		gaps, _, err := p.st.GapsIn(ctx, from, tip)
		return gaps, err
	}
	synced, err := p.st.Synced(ctx, from, tip)
	if err != nil {
		return nil, err
	}
	return store.Gaps(synced, from, tip), nil
}

// startProgress logs a backfill (more than one milestone) and its progress.
func (p *Pipeline) startProgress(gaps []store.Range, tip uint32) {
	total := store.CountOf(gaps)
	if total > 1 && total != p.lastGapTotal { // not again while waiting on other nodes' blocks
		p.log.Info("filling gaps", "milestones", total, "ranges", len(gaps), "tip", tip)
	}
	p.lastGapTotal = total
	if total <= 1 {
		total = 0 // following the tip: no progress lines
	}
	p.progress = newProgress(p.log, total)
}

// unreferencedIfHeld writes the unreferenced messages after tip if this node holds (or
// takes) the lease for them: one node at a time does this work.
func (p *Pipeline) unreferencedIfHeld(ctx context.Context, tip uint32) error {
	held, err := p.st.AcquireLease(ctx, p.unreferencedLease())
	if err != nil || !held {
		return err
	}
	return p.writeUnreferenced(ctx, tip)
}

// LastWritten is the newest milestone this pipeline fully wrote.
func (p *Pipeline) LastWritten() uint32 { return p.lastWritten.Load() }

// Written counts the milestones this pipeline wrote (other nodes' not included).
func (p *Pipeline) Written() int64 { return p.written.Load() }

type sourceError struct{ err error }

func (e *sourceError) Error() string { return "source: " + e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

func errorKind(err error) string {
	if errors.As(err, new(*sourceError)) {
		return "source"
	}
	return "database"
}

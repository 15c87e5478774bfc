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
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Config tunes the pipeline.
type Config struct {
	NodeID        int8          // written to sync.synced_by
	Start         uint32        // first milestone to index (default 1)
	FetchAhead    int           // milestones fetched from the source ahead of the writers
	Window        int           // milestones written at once
	WriteParallel int           // write groups in flight per milestone
	Follow        bool          // after the gaps, keep following the tip
	PollInterval  time.Duration // how often to ask the source for a new tip
	Unreferenced  bool          // also write not-yet-referenced messages while following
	// StopAt, when non-zero, stops after this milestone (backfill a fixed range).
	StopAt uint32
}

func (c *Config) defaults() {
	c.Start = max(c.Start, 1)
	if c.FetchAhead < 1 {
		c.FetchAhead = 8
	}
	if c.Window < 1 {
		c.Window = 4
	}
	if c.WriteParallel < 1 {
		c.WriteParallel = 64
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
}

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
	progress     *progress
	extra        []RowsFunc
	seenPending  map[chain.MessageID]struct{}
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
	return &Pipeline{src: src, st: st, hw: hints.NewWriter(1 << 20), cfg: cfg, m: m, log: log,
		seenPending: map[chain.MessageID]struct{}{}}
}

func (p *Pipeline) node() string { return strconv.Itoa(int(p.cfg.NodeID)) }

// MilestoneError is a milestone the pipeline refused: nothing of it or after it was written.
type MilestoneError struct {
	Index uint32
	Err   error
}

func (e *MilestoneError) Error() string { return fmt.Sprintf("milestone %d: %v", e.Index, e.Err) }
func (e *MilestoneError) Unwrap() error { return e.Err }

// Run ingests until ctx ends, the range given by StopAt is done, or a milestone is
// refused. Database outages pause it with backoff; it then resumes from the sync table.
func (p *Pipeline) Run(ctx context.Context) error {
	if err := p.loadPendingFloor(ctx); err != nil {
		return fmt.Errorf("reading pending floor: %w", err)
	}
	backoff := time.Second
	for {
		err := p.runOnce(ctx)
		var refused *MilestoneError
		switch {
		case err == nil, ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &refused) && errors.As(err, new(*chain.ValidationError)):
			p.m.Errors.WithLabelValues("validation").Inc()
			return err
		}
		p.m.Errors.WithLabelValues(errorKind(err)).Inc()
		p.m.Paused.Set(1)
		p.log.Warn("ingest paused", "error", err, "retry_in", backoff)
		if werr := sleepCtx(ctx, backoff); werr != nil {
			return werr
		}
		p.m.Paused.Set(0)
		backoff = min(backoff*2, 30*time.Second)
	}
}

// runOnce fills every gap up to the source's tip, then follows the tip if configured.
func (p *Pipeline) runOnce(ctx context.Context) error {
	tip, err := p.tip(ctx)
	if err != nil {
		return err
	}
	if err := p.fillGaps(ctx, tip); err != nil {
		return err
	}
	if !p.cfg.Follow {
		return nil
	}
	return p.follow(ctx, tip)
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

// fillGaps writes every milestone in [Start, tip] that has no sync row, oldest first.
func (p *Pipeline) fillGaps(ctx context.Context, tip uint32) error {
	if tip < p.cfg.Start {
		return nil
	}
	synced, err := p.st.Synced(ctx, p.cfg.Start, tip)
	if err != nil {
		return err
	}
	gaps := store.Gaps(synced, p.cfg.Start, tip)
	total := 0
	for _, g := range gaps {
		total += g.Len()
	}
	if total > 0 {
		p.log.Info("filling gaps", "milestones", total, "ranges", len(gaps), "tip", tip)
	}
	p.progress = newProgress(p.log, total)
	for _, g := range gaps {
		if err := p.ingestRange(ctx, g, tip); err != nil {
			return err
		}
	}
	p.progress.done()
	return nil
}

// follow polls the source for new milestones (and unreferenced messages).
func (p *Pipeline) follow(ctx context.Context, done uint32) error {
	for {
		if p.cfg.StopAt != 0 && done >= p.cfg.StopAt {
			return nil
		}
		if p.cfg.Unreferenced {
			if err := p.writeUnreferenced(ctx, done); err != nil {
				return err
			}
		}
		tip, err := p.tip(ctx)
		if err != nil {
			return err
		}
		if tip > done {
			if err := p.ingestRange(ctx, store.Range{From: done + 1, To: tip}, tip); err != nil {
				return err
			}
			done = tip
			continue
		}
		if err := sleepCtx(ctx, p.cfg.PollInterval); err != nil {
			return err
		}
	}
}

// LastWritten is the newest milestone this pipeline fully wrote.
func (p *Pipeline) LastWritten() uint32 { return p.lastWritten.Load() }

type sourceError struct{ err error }

func (e *sourceError) Error() string { return "source: " + e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

func errorKind(err error) string {
	if errors.As(err, new(*sourceError)) {
		return "source"
	}
	return "database"
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

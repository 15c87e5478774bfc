package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// A milestone the source refuses as not held (source.ErrNotHeld: a pruned node) cannot
// be had by asking again soon, but an archive or a later node may hold it. The pipeline
// records it in the store, goes on past it (the tip keeps being followed), asks again
// every UnavailableRetry, and clears the record once a fetch or an import writes it.

// notHeldError is a milestone the source no longer holds: nothing of it was written.
type notHeldError struct {
	Index uint32
	Err   error
}

func (e *notHeldError) Error() string {
	return fmt.Sprintf("milestone %d not held: %v", e.Index, e.Err)
}
func (e *notHeldError) Unwrap() error { return e.Err }

// loadUnavailable reads the recorded unavailable milestones (once per start and gap
// check: other nodes and imports change the record too).
func (p *Pipeline) loadUnavailable(ctx context.Context) error {
	rs, err := p.st.Unavailable(ctx)
	if err != nil {
		return fmt.Errorf("reading unavailable milestones: %w", err)
	}
	p.setUnavailable(rs)
	return nil
}

func (p *Pipeline) setUnavailable(rs []store.Range) {
	p.unavailable = rs
	p.m.Unavailable.Set(float64(store.CountOf(rs)))
}

// skipUnavailable takes the unavailable milestones out of gaps, unless asking for them
// again is due; skip is what it took out, for the rereads under a block's lease.
func (p *Pipeline) skipUnavailable(gaps []store.Range) (keep, skip []store.Range) {
	if !overlapsAny(p.unavailable, gaps) {
		return gaps, nil
	}
	if time.Since(p.retriedAt) >= p.cfg.UnavailableRetry {
		p.retriedAt = time.Now()
		p.log.Info("asking the source again for milestones it did not hold",
			"milestones", store.CountOf(p.unavailable))
		return gaps, nil
	}
	return store.Without(gaps, p.unavailable), p.unavailable
}

func overlapsAny(rs, gaps []store.Range) bool {
	for _, g := range gaps {
		if store.Overlaps(rs, g) {
			return true
		}
	}
	return false
}

// ingestHeld writes g (ingestRange); the milestones the source does not hold are
// recorded as unavailable (one write per range of them), and the written milestones
// that were recorded so are cleared.
func (p *Pipeline) ingestHeld(ctx context.Context, g store.Range, tip uint32) error {
	notHeld, err := p.ingestRange(ctx, g, tip)
	if err == nil {
		for _, written := range store.Without([]store.Range{g}, notHeld) {
			if err = p.clearWritten(ctx, written); err != nil {
				break
			}
		}
	}
	return errors.Join(err, p.markUnavailable(ctx, notHeld))
}

// extendWith adds index to the ascending list rs, joining it to the last range when adjacent.
func extendWith(rs []store.Range, index uint32) []store.Range {
	if n := len(rs); n > 0 && rs[n-1].To+1 == index {
		rs[n-1].To = index
		return rs
	}
	return append(rs, store.Range{From: index, To: index})
}

// markUnavailable records rs as not held by the source; the next retry is due
// UnavailableRetry from now.
func (p *Pipeline) markUnavailable(ctx context.Context, rs []store.Range) error {
	if len(rs) > 0 {
		p.retriedAt = time.Now()
	}
	for _, r := range rs {
		p.log.Warn("the source does not hold these milestones: skipped, asked again later; "+
			"indexer import of an archive fills them", "from", r.From, "to", r.To, "retry_every", p.cfg.UnavailableRetry)
		all, err := p.st.MarkUnavailable(ctx, r, p.cfg.Owner)
		if err != nil {
			return fmt.Errorf("recording milestones %d-%d as unavailable: %w", r.From, r.To, err)
		}
		p.setUnavailable(all)
	}
	return nil
}

// clearWritten removes the written range r from the record, if it lists any of it.
func (p *Pipeline) clearWritten(ctx context.Context, r store.Range) error {
	if !store.Overlaps(p.unavailable, r) {
		return nil
	}
	all, err := p.st.ClearUnavailable(ctx, r, p.cfg.Owner)
	if err != nil {
		return fmt.Errorf("clearing unavailable milestones %d-%d: %w", r.From, r.To, err)
	}
	p.log.Info("milestones the source did not hold are written now", "from", r.From, "to", r.To)
	p.setUnavailable(all)
	return nil
}

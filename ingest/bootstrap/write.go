package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// writer writes a bootstrap's rows: bounded batches of outputs, several in flight
// through one write pool, the checkpoint advanced as batches complete.
type writer struct {
	st       *store.Store
	pool     *store.WritePool
	hw       *hints.Writer
	m        *Metrics
	hintTS   int64 // hint rows carry the ledger's timestamp
	batch    int
	inFlight int
}

// apply writes one write set and its hints not written yet.
func (w *writer) apply(ctx context.Context, ws *store.WriteSet) error {
	writes := append(ws.Writes, w.hw.Writes(ws.Hints, w.hintTS)...)
	if err := w.pool.Apply(ctx, writes); err != nil {
		return err
	}
	w.hw.Remember(ws.Hints)
	counts := map[string]int{}
	for _, wr := range writes {
		counts[wr.Table()]++
	}
	for table, n := range counts {
		w.m.addRows(table, n)
	}
	return nil
}

// checkpoint saves how far the output stream is written, at most once a period.
type checkpoint struct {
	mu     sync.Mutex
	save   func(ctx context.Context, done uint64) error
	saved  uint64
	last   time.Time
	period time.Duration
}

func (c *checkpoint) advance(ctx context.Context, done uint64, force bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if done <= c.saved || (!force && time.Since(c.last) < c.period) {
		return nil
	}
	if err := c.save(ctx, done); err != nil {
		return err
	}
	c.saved, c.last = done, time.Now()
	return nil
}

// streamOutputs writes the full file's outputs from position from on (outputs before
// it are written already), leaving out those in skip.
func (w *writer) streamOutputs(ctx context.Context, r *snapshot.Reader, from uint64, skip map[chain.OutputID]bool,
	cp *checkpoint, prog *progress) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(w.inFlight)
	front := newFrontier(from)
	pos, start := uint64(0), from
	batch := make([]chain.LedgerOutput, 0, w.batch)
	flush := func() {
		outs, s, e := batch, start, pos
		batch, start = make([]chain.LedgerOutput, 0, w.batch), pos
		g.Go(func() error {
			if err := w.apply(gctx, w.st.SnapshotOutputWrites(outs)); err != nil {
				return fmt.Errorf("writing outputs %d-%d: %w", s+1, e, err)
			}
			done := front.complete(s, e)
			if err := prog.step(gctx, done); err != nil {
				return err
			}
			return cp.advance(gctx, done, false)
		})
	}
	err := readOutputs(gctx, r, func(o *snapshot.Output) error {
		if pos++; pos <= from {
			return nil
		}
		if !skip[o.OutputID] {
			lo, err := o.Ledger()
			if err != nil {
				return err
			}
			batch = append(batch, lo)
		}
		if len(batch) >= w.batch {
			flush()
		}
		return nil
	})
	if err == nil {
		flush()
	}
	if werr := g.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	return cp.advance(ctx, front.complete(pos, pos), true)
}

// readOutputs calls f for each output of r, stopping at the first error.
func readOutputs(ctx context.Context, r *snapshot.Reader, f func(*snapshot.Output) error) error {
	for ctx.Err() == nil {
		o, err := r.NextOutput()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(o); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// writeOutputs writes outputs held in memory, in batches.
func (w *writer) writeOutputs(ctx context.Context, outs []chain.LedgerOutput) error {
	for len(outs) > 0 {
		n := min(len(outs), w.batch)
		if err := w.apply(ctx, w.st.SnapshotOutputWrites(outs[:n])); err != nil {
			return err
		}
		outs = outs[n:]
	}
	return nil
}

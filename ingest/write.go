package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
)

type fetched struct {
	index uint32
	vm    *chain.VerifiedMilestone
	err   error
}

// ingestRange fetches r ahead in parallel, validates each milestone in order, and writes
// up to Window milestones at once. A milestone that fails validation stops the range:
// earlier milestones finish, nothing from it on is written. A milestone the source does
// not hold is passed over (nothing of it is written) and returned in notHeld.
func (p *Pipeline) ingestRange(ctx context.Context, r store.Range, tip uint32) (notHeld []store.Range, err error) {
	fctx, stopFetching := context.WithCancel(ctx)
	defer stopFetching()
	writers, wctx := errgroup.WithContext(p.writeCtx)
	writers.SetLimit(p.cfg.Window)
	var refused error
	var prev *chain.ConfirmedMilestone
	for res := range p.fetchOrdered(fctx, r) {
		refused = p.check(res)
		var nh *notHeldError
		if errors.As(refused, &nh) && wctx.Err() == nil {
			notHeld, prev, refused = extendWith(notHeld, nh.Index), nil, nil
			continue
		}
		if refused != nil || wctx.Err() != nil {
			break
		}
		vm := res.vm
		if refused = p.checkChain(wctx, prev, vm.Confirmed(), r.To); refused != nil {
			break
		}
		prev = vm.Confirmed()
		writers.Go(func() error { return p.writeMilestone(wctx, vm, tip) })
	}
	stopFetching()
	if err := writers.Wait(); err != nil {
		return notHeld, err
	}
	return notHeld, refused
}

// check turns a fetch result into the error that stops the range, if any.
func (p *Pipeline) check(res fetched) error {
	if res.err != nil {
		return p.sourceFailure(res)
	}
	cm := res.vm.Confirmed()
	switch {
	case cm.Index != res.index:
		return &MilestoneError{res.index, &chain.ValidationError{Field: "index",
			Reason: fmt.Sprintf("source returned milestone %d", cm.Index)}}
	case !res.vm.For(*p.net):
		return &MilestoneError{res.index, &chain.ValidationError{Field: "milestone",
			Reason: "the source verified it against another network than the keyspace's"}}
	}
	p.m.VerifySec.Observe(res.vm.Took().Seconds())
	return nil
}

// sourceFailure is the error of a milestone the source did not serve: one that fails
// verification is refused (a MilestoneError, nothing of it is written), one the source
// no longer holds is passed over, any other stops the range to be tried again.
func (p *Pipeline) sourceFailure(res fetched) error {
	if errors.Is(res.err, source.ErrUnverified) {
		p.log.Error("refusing milestone", "milestone", res.index, "error", res.err)
		return &MilestoneError{res.index, res.err}
	}
	err := &sourceError{fmt.Errorf("milestone %d: %w", res.index, res.err)}
	if errors.Is(res.err, source.ErrNotHeld) {
		return &notHeldError{res.index, err}
	}
	return err
}

// fetchOrdered fetches the milestones of r with at most FetchAhead in flight and
// delivers them in index order.
func (p *Pipeline) fetchOrdered(ctx context.Context, r store.Range) <-chan fetched {
	out := make(chan fetched)
	slots := make(chan chan fetched, p.cfg.FetchAhead)
	go func() {
		defer close(slots)
		for i := uint64(r.From); i <= uint64(r.To); i++ {
			ch := make(chan fetched, 1)
			select {
			case slots <- ch:
			case <-ctx.Done():
				return
			}
			go func(index uint32) { ch <- p.fetch(ctx, index) }(uint32(i))
		}
	}()
	go func() {
		defer close(out)
		for ch := range slots {
			res := <-ch
			select {
			case out <- res:
			case <-ctx.Done():
			}
		}
	}()
	return out
}

func (p *Pipeline) fetch(ctx context.Context, index uint32) fetched {
	start := time.Now()
	vm, err := p.src.Milestone(ctx, index)
	p.m.SourceFetchSec.Observe(time.Since(start).Seconds())
	return fetched{index: index, vm: vm, err: err}
}

// writeMilestone writes every row of a verified milestone, then its sync row.
func (p *Pipeline) writeMilestone(ctx context.Context, vm *chain.VerifiedMilestone, tip uint32) error {
	start, cm := time.Now(), vm.Confirmed()
	marks, err := p.pendingMarks(ctx, cm)
	if err != nil {
		return fmt.Errorf("milestone %d: reading pending marks: %w", cm.Index, err)
	}
	ws := p.st.MilestoneWrites(cm, p.cfg.Start, marks)
	writes := ws.Writes
	for _, extra := range p.extra {
		writes = append(writes, extra(cm, p.st)...)
	}
	writes = append(writes, p.hw.Writes(ws.Hints, store.Timestamp(cm.Index, store.PhaseConfirmed))...)
	if err := p.pool.Apply(ctx, writes); err != nil {
		return fmt.Errorf("milestone %d: %w", cm.Index, err)
	}
	p.rememberHints(ws.Hints)
	syncStart := time.Now()
	if err := p.st.WriteSync(ctx, cm.Index, p.cfg.NodeID, p.cfg.LoggedBy); err != nil {
		return fmt.Errorf("milestone %d: sync row: %w", cm.Index, err)
	}
	p.m.WriteSeconds.WithLabelValues("sync").Observe(time.Since(syncStart).Seconds())
	p.m.WriteSeconds.WithLabelValues("milestone").Observe(time.Since(start).Seconds())
	p.account(writes, cm.Index, tip)
	return nil
}

func (p *Pipeline) account(writes []store.Write, index, tip uint32) {
	counts := map[string]int{"sync": 1}
	for _, w := range writes {
		counts[w.Table()]++
	}
	for table, n := range counts {
		p.m.Rows.WithLabelValues(table).Add(float64(n))
	}
	p.m.Milestones.Inc()
	p.written.Add(1)
	for {
		last := p.lastWritten.Load()
		if index <= last || p.lastWritten.CompareAndSwap(last, index) {
			break
		}
	}
	p.m.LastMilestone.Set(float64(p.lastWritten.Load()))
	lag := int64(tip) - int64(p.lastWritten.Load())
	p.lag.Store(lag)
	p.m.Lag.Set(float64(lag))
	if p.progress != nil {
		p.progress.step()
	}
}

// RowsFunc returns extra writes for a milestone (the analytics rows).
type RowsFunc func(*chain.ConfirmedMilestone, *store.Store) []store.Write

// AddRows registers a function whose writes join every milestone's writes, before its
// sync row (analytics rows, so that a synced milestone is complete with them).
func (p *Pipeline) AddRows(f RowsFunc) {
	p.extra = append(p.extra, f)
}

// rememberHints marks the hints of a write set as written, once its writes succeeded,
// and shows how many hints the writer now knows.
func (p *Pipeline) rememberHints(h *store.HintSet) {
	p.hw.Remember(h)
	p.m.HintsKnown.Set(float64(p.hw.Known()))
}

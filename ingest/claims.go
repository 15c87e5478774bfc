package ingest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Several indexer nodes share one keyspace by claiming blocks of milestones. A block is
// Claim consecutive milestones, aligned so that every node agrees on its bounds, and is
// claimed with a lease row taken by a lightweight transaction. A node writes only the
// gaps of a block it holds, read again under the lease, so no milestone is written by two
// nodes at once; a node that dies frees its block when the lease's TTL runs out.

// errLeaseLost ends a block's writes when its lease could not be renewed in time.
var errLeaseLost = errors.New("block lease lost")

// splitAtBlocks cuts gaps at block boundaries: each piece lies within one block. The
// pieces are made one at a time as they are filled, so a wide gap costs no memory.
func splitAtBlocks(gaps []store.Range, size uint32) iter.Seq[store.Range] {
	return func(yield func(store.Range) bool) {
		for _, g := range gaps {
			for from := uint64(g.From); from <= uint64(g.To); {
				end := min(uint64(g.To), (from/uint64(size)+1)*uint64(size)-1)
				if !yield(store.Range{From: uint32(from), To: uint32(end)}) {
					return
				}
				from = end + 1
			}
		}
	}
}

func (p *Pipeline) blockLease(index uint32) store.Lease {
	return store.Lease{Name: fmt.Sprintf("ingest/blocks-of-%d/%d", p.cfg.Claim, index/p.cfg.Claim),
		Owner: p.cfg.Owner, TTL: p.cfg.ClaimTTL}
}

// fillPiece writes the gaps of piece, but those in skip, if this node can claim its
// block; heldElsewhere reports that another node holds it.
func (p *Pipeline) fillPiece(ctx context.Context, piece store.Range, tip uint32, skip []store.Range) (heldElsewhere bool, err error) {
	lease := p.blockLease(piece.From)
	held, err := p.st.AcquireLease(ctx, lease)
	p.m.Claims.WithLabelValues(claimResult(held, err)).Inc()
	if err != nil || !held {
		return err == nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer p.holdLease(ctx, lease, cancel)()
	synced, err := p.st.Synced(ctx, piece.From, piece.To) // again, under the lease
	if err != nil {
		return false, err
	}
	for _, g := range store.Without(store.Gaps(synced, piece.From, piece.To), skip) {
		if err := p.ingestHeld(ctx, g, tip); err != nil {
			if cause := context.Cause(ctx); errors.Is(cause, errLeaseLost) {
				return false, fmt.Errorf("milestones %d-%d: %w", g.From, g.To, cause)
			}
			return false, err
		}
	}
	_, err = p.st.AdvanceWatermark(ctx, store.NewestSyncedConcern, int64(piece.To), "", p.node())
	return false, err
}

func claimResult(held bool, err error) string {
	if err != nil {
		return "error"
	}
	if held {
		return "taken"
	}
	return "held_elsewhere"
}

// holdLease renews the lease every third of its TTL until the returned stop is called,
// which then releases it. When renewing fails for a whole TTL (another node may have taken
// the block), it cancels ctx with errLeaseLost.
func (p *Pipeline) holdLease(ctx context.Context, lease store.Lease, cancel context.CancelCauseFunc) (stop func()) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(lease.TTL / 3)
		defer tick.Stop()
		renewed := time.Now()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if ok, err := p.st.RenewLease(ctx, lease); ok && err == nil {
				renewed = time.Now()
			} else if !ok && err == nil || time.Since(renewed) >= lease.TTL {
				p.m.Claims.WithLabelValues("lost").Inc()
				p.log.Warn("lost a block lease", "lease", lease.Name, "error", err)
				cancel(errLeaseLost)
				return
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer rcancel()
		if err := p.st.ReleaseLease(rctx, lease); err != nil {
			p.log.Debug("releasing a block lease; its TTL frees it", "lease", lease.Name, "error", err)
		}
	}
}

// unreferencedLease lets one node at a time write the not-yet-referenced messages.
func (p *Pipeline) unreferencedLease() store.Lease {
	return store.Lease{Name: "ingest/unreferenced", Owner: p.cfg.Owner, TTL: p.cfg.ClaimTTL}
}

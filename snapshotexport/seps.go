package snapshotexport

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// sepMargin is what Hornet adds to the protocol's below max depth for its solid entry
// point thresholds (SolidEntryPointCheckAdditionalThresholdPast and ...Future).
const sepMargin = 5

// solidEntryPoints are the solid entry points at N (docs/snapshots.md, "Export"). At L
// they are the bootstrap's. Past L, Hornet's rule: a block referenced by a milestone in
// [N - P, N] (P: below max depth + 5) is one when a child of it was referenced by a
// milestone after N. The candidates are the blocks of those milestones past L (their
// messages_by_milestone rows) and, when the window reaches L, the bootstrap's solid
// entry points (every block referenced by L or before with a child referenced after N is
// one of them). A candidate is kept when the parents table names a child referenced
// after N, and, whatever its children, when it was referenced by milestone X - P or
// later: a child referenced after X may not be indexed yet, and below max depth keeps
// children referenced after X from attaching to older blocks. Sorted by block ID.
func (e *export) solidEntryPoints(ctx context.Context) ([]chain.MessageID, error) {
	window := uint32(e.option.Params.BelowMaxDepth) + sepMargin
	from, whole := e.n-min(e.n, window), e.x-min(e.x, window)
	var boot []chain.MessageID
	if e.n == e.l || from <= e.l {
		var err error
		if boot, err = e.st.BootstrapSEPs(ctx, e.l); err != nil {
			return nil, fmt.Errorf("the bootstrap's solid entry points: %w", err)
		}
	}
	if e.n == e.l {
		return boot, nil
	}
	cands := map[string]uint32{} // block ID -> the milestone that referenced it (at most)
	for _, id := range boot {
		cands[id.String()] = e.l
	}
	for m := max(from, e.l+1); m <= e.n; m++ {
		ids, err := e.st.MilestoneMessages(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("messages of milestone %d: %w", m, err)
		}
		for _, id := range ids {
			cands[id] = m
		}
	}
	return e.keepSEPs(ctx, cands, whole)
}

// keepSEPs keeps the candidates referenced at or after whole and those with a child
// referenced after N.
func (e *export) keepSEPs(ctx context.Context, cands map[string]uint32, whole uint32) ([]chain.MessageID, error) {
	var (
		mu   sync.Mutex
		kept []chain.MessageID
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.cfg.Reads)
	for _, id := range slices.Sorted(maps.Keys(cands)) {
		g.Go(func() error {
			keep := cands[id] >= whole
			if !keep {
				var err error
				if keep, err = e.st.ReferencedAfter(gctx, id, e.n); err != nil {
					return err
				}
			}
			if !keep {
				return nil
			}
			block, err := chain.ParseMessageID(id)
			if err != nil {
				return fmt.Errorf("block %q: %w", id, err)
			}
			mu.Lock()
			kept = append(kept, block)
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	slices.SortFunc(kept, func(a, b chain.MessageID) int { return bytes.Compare(a[:], b[:]) })
	return kept, nil
}

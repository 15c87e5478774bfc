package source

import (
	"github.com/stardust-indexer/stardust-indexer/chain"

	"context"
	"time"
)

// Growing serves a source's milestones as if they were being confirmed live: at first
// up to Backfill, then one more every Every. `indexer run --source sim` uses it to
// backfill a chain and then follow a moving tip.
type Growing struct {
	Source
	Backfill uint32
	Every    time.Duration
	start    time.Time
}

// NewGrowing starts the clock now.
func NewGrowing(src Source, backfill uint32, every time.Duration) *Growing {
	return &Growing{Source: src, Backfill: backfill, Every: every, start: time.Now()}
}

// Latest is the backfill tip plus one milestone per elapsed Every, capped by the source.
func (g *Growing) Latest(ctx context.Context) (uint32, error) {
	tip, err := g.Source.Latest(ctx)
	if err != nil {
		return 0, err
	}
	grown := g.Backfill
	if g.Every > 0 {
		grown += uint32(time.Since(g.start) / g.Every)
	}
	if tip != 0 {
		grown = min(grown, tip)
	}
	return grown, nil
}

// Milestone refuses milestones past the current tip, like a node would.
func (g *Growing) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	tip, err := g.Latest(ctx)
	if err != nil {
		return nil, err
	}
	if index > tip {
		return nil, ErrNotFound
	}
	return g.Source.Milestone(ctx, index)
}

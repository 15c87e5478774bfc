// Package sim generates a deterministic Stardust-style chain for tests and
// demos: a real UTXO graph with Zipf-popular addresses and tags, alias,
// foundry and NFT lifecycles, conflicts, re-attachments and injectable
// faults. It implements source.Source.
package sim

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Sim is a generated chain. Milestones are generated in order on first
// request and cached (all of them, or the newest Options.Retain), so answers do
// not depend on request order or concurrency. It is safe for concurrent use.
type Sim struct {
	mu   sync.Mutex
	opts Options
	gen  *generator
	net  chain.Network // what its milestones are verified against
}

var _ source.Source = (*Sim)(nil)

// New prepares a chain; nothing is generated until asked for.
func New(opts Options) *Sim {
	opts = opts.withDefaults()
	return &Sim{opts: opts, gen: newGenerator(opts), net: Network()}
}

// Options returns the options in effect, defaults filled in.
func (s *Sim) Options() Options { return s.opts }

// last is the highest index that exists; math.MaxUint32 when unbounded.
func (s *Sim) last() uint32 {
	if s.opts.Tip == 0 {
		return math.MaxUint32
	}
	return s.opts.FirstIndex + s.opts.Tip - 1
}

// Latest returns the tip index; an unbounded sim reports math.MaxUint32
// (wrap it in source.Growing to follow a moving tip).
func (s *Sim) Latest(ctx context.Context) (uint32, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.last(), nil
}

// Milestone returns milestone index verified (source.Verified): a milestone served with
// a fault (Options.Faults) that verification finds is refused.
func (s *Sim) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	return source.Verified(ctx, index, s.net, s.Confirmed)
}

// Confirmed returns milestone index as it is served, unverified (with its fault, if
// any), generating it (and every milestone before it) if needed. Indexes outside the
// chain give source.ErrNotFound.
func (s *Sim) Confirmed(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, err := s.record(ctx, index)
	if err != nil {
		return nil, err
	}
	cm, err := s.gen.confirmed(rec)
	if err != nil {
		return nil, fmt.Errorf("sim: milestone %d: %w", index, err)
	}
	serveFault(cm, s.opts.Faults[index])
	return cm, nil
}

// record generates up to index and returns its record; callers hold s.mu.
func (s *Sim) record(ctx context.Context, index uint32) (*msRecord, error) {
	if index < s.opts.FirstIndex || index > s.last() {
		return nil, fmt.Errorf("%w: milestone %d is outside %d..%d",
			source.ErrNotFound, index, s.opts.FirstIndex, s.last())
	}
	pos := index - s.opts.FirstIndex
	if pos < s.gen.dropped { // forgotten (Options.Retain): the chain is deterministic, start over
		s.gen = newGenerator(s.opts)
	}
	for s.gen.dropped+uint32(len(s.gen.records)) <= pos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.gen.generateNext()
	}
	return s.gen.records[pos-s.gen.dropped], nil
}

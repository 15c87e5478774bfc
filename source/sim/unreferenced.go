package sim

import (
	"context"
	"errors"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Unreferenced returns about two thirds of the regular messages milestone
// after+1 will reference, as seen before it arrived: SeenAt lies between
// the two milestones' timestamps and EstMilestoneIndex is after+1. The
// same messages later arrive confirmed. Past the tip there are none.
func (s *Sim) Unreferenced(ctx context.Context, after uint32) ([]chain.UnreferencedMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := after + 1
	if next < after || next < s.opts.FirstIndex {
		return nil, nil
	}
	rec, err := s.record(ctx, next)
	if errors.Is(err, source.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.pending(rec)
}

// pending picks the deterministic subset; a message carrying a milestone is never
// pending (it arrives with the milestone after it), nor is one that does not decode.
func (s *Sim) pending(rec *msRecord) ([]chain.UnreferencedMessage, error) {
	var regular []msgRec
	for _, m := range rec.msgs {
		if !m.milestone {
			regular = append(regular, m)
		}
	}
	step := s.opts.MilestoneInterval / time.Duration(len(regular)+1)
	start := rec.ts.Add(-s.opts.MilestoneInterval)
	var out []chain.UnreferencedMessage
	for i, m := range regular {
		decoded, err := chain.DecodeMessage(m.raw)
		if i%3 == 2 || err != nil {
			continue
		}
		out = append(out, chain.UnreferencedMessage{
			ID: m.id, Raw: m.raw, Message: decoded, EstMilestoneIndex: rec.index,
			SeenAt: start.Add(step * time.Duration(i+1)).Truncate(time.Millisecond).UTC(),
		})
	}
	return out, nil
}

package ingest

import (
	"context"
	"fmt"
	"math"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// writeUnreferenced writes the messages attached after milestone `after` and not
// referenced yet, once each (a bounded memory of what was written).
func (p *Pipeline) writeUnreferenced(ctx context.Context, after uint32) error {
	msgs, err := p.src.Unreferenced(ctx, after)
	if err != nil {
		return &sourceError{fmt.Errorf("unreferenced after %d: %w", after, err)}
	}
	fresh := msgs[:0:0]
	for _, m := range msgs {
		if _, done := p.seenPending[m.ID]; !done {
			fresh = append(fresh, m)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	for _, m := range fresh {
		if err := chain.ValidateMessage(m.Message, m.Raw); err != nil {
			p.m.Errors.WithLabelValues("validation").Inc()
			return &MilestoneError{m.EstMilestoneIndex, fmt.Errorf("unreferenced message %s: %w", m.ID, err)}
		}
	}
	lowest := p.clampEstimates(fresh, after)
	if err := p.notePending(ctx, lowest); err != nil {
		return err
	}
	ws := p.st.UnreferencedWrites(fresh)
	writes := append(ws.Writes, p.hw.Writes(ws.Hints, store.Timestamp(lowest, store.PhasePending))...)
	if err := p.pool.Apply(ctx, writes); err != nil {
		return err
	}
	p.rememberHints(ws.Hints)
	if len(p.seenPending) > 100000 {
		p.seenPending = map[chain.MessageID]struct{}{}
	}
	for _, m := range fresh {
		p.seenPending[m.ID] = struct{}{}
	}
	p.m.Unreferenced.Add(float64(len(fresh)))
	return nil
}

// clampEstimates bounds each message's estimated milestone by the milestone after the
// newest one known written (this pipeline's last, or the tip when it wrote none yet,
// whichever is lower), and returns the lowest estimate. Pending rows are stamped at their
// estimate, so an estimate past the milestone that references the message would stamp
// them above the confirmed rows and deletes meant to replace them; one below it only
// makes them lose sooner.
func (p *Pipeline) clampEstimates(msgs []chain.UnreferencedMessage, tip uint32) uint32 {
	base := tip
	if lw := p.lastWritten.Load(); lw != 0 && lw < base {
		base = lw
	}
	limit := nextIndex(base)
	lowest := limit
	for i := range msgs {
		msgs[i].EstMilestoneIndex = min(msgs[i].EstMilestoneIndex, limit)
		lowest = min(lowest, msgs[i].EstMilestoneIndex)
	}
	return lowest
}

// nextIndex is the milestone after index, without wrapping past the last index.
func nextIndex(index uint32) uint32 {
	if index == math.MaxUint32 {
		return index
	}
	return index + 1
}

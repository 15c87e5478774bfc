package ingest

import (
	"context"
	"fmt"

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
	if err := p.notePending(ctx, fresh[0].EstMilestoneIndex); err != nil {
		return err
	}
	ws := p.st.UnreferencedWrites(fresh)
	writes := append(ws.Writes, p.hw.Writes(ws.Hints, store.Timestamp(fresh[0].EstMilestoneIndex, store.PhasePending))...)
	if err := p.pool.Apply(ctx, writes); err != nil {
		return err
	}
	p.hw.Remember(ws.Hints)
	if len(p.seenPending) > 100000 {
		p.seenPending = map[chain.MessageID]struct{}{}
	}
	for _, m := range fresh {
		p.seenPending[m.ID] = struct{}{}
	}
	p.m.Unreferenced.Add(float64(len(fresh)))
	return nil
}

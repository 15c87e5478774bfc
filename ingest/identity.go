package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// checkChain refuses cm unless it continues the chain: the milestone before it (the
// previous one of the range, else the keyspace's) is the one it names as previous, and
// the keyspace's milestone after the range names the range's last. The first milestone
// that passes becomes the keyspace's anchor, if it has none.
func (p *Pipeline) checkChain(ctx context.Context, prev, cm *chain.ConfirmedMilestone, last uint32) error {
	var err error
	if prev != nil && prev.Index+1 == cm.Index {
		if prev.MilestoneID != cm.PreviousMilestoneID {
			err = fmt.Errorf("%w: milestone %d names %s as previous, the source's %d is %s", store.ErrChainBreak,
				cm.Index, cm.PreviousMilestoneID, prev.Index, prev.MilestoneID)
		}
	} else {
		err = p.st.CheckPrevious(ctx, cm)
	}
	if err == nil && cm.Index == last {
		err = p.st.CheckNext(ctx, cm)
	}
	if err == nil && !p.anchored {
		err = p.st.RecordAnchor(ctx, cm, p.cfg.Owner)
		p.anchored = err == nil
	}
	if errors.Is(err, store.ErrChainBreak) {
		p.log.Error("refusing milestone", "milestone", cm.Index, "error", err)
	}
	return err
}

// checkAnchor compares the keyspace's anchor milestone with the source's, once per
// start, when the source holds it: a network reset under the same name and keys is
// refused before anything of it is written (store.ErrChainBreak).
func (p *Pipeline) checkAnchor(ctx context.Context) error {
	index, id, ok, err := p.st.Anchor(ctx)
	if err != nil || !ok {
		p.anchored = ok
		return err
	}
	p.anchored = true
	tip, err := p.src.Latest(ctx)
	if err != nil {
		return &sourceError{err}
	}
	if tip < index {
		return nil // the source's chain is shorter: a reset, or a source far behind; the chain check decides later
	}
	vm, err := p.src.Milestone(ctx, index)
	switch {
	case errors.Is(err, source.ErrNotFound), errors.Is(err, source.ErrNotHeld):
		return nil
	case err != nil:
		return &sourceError{fmt.Errorf("anchor milestone %d: %w", index, err)}
	case vm.Confirmed().MilestoneID.String() != id:
		return fmt.Errorf("%w: the keyspace's anchor milestone %d is %s, the source's is %s", store.ErrChainBreak,
			index, id, vm.Confirmed().MilestoneID)
	}
	return nil
}

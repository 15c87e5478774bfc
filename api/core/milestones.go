package core

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

func (s *API) coreMilestoneByIndex(ctx context.Context, in *rest.Input, p *rest.MilestoneIndexParams) (any, error) {
	return s.milestoneAnswer(ctx, p.Index, in.Accept)
}

func (s *API) coreMilestoneByID(ctx context.Context, in *rest.Input, p *rest.MilestoneIDParams) (any, error) {
	index, err := s.MilestoneIndexOf(ctx, p.MilestoneID)
	if err != nil {
		return nil, err
	}
	return s.milestoneAnswer(ctx, index, in.Accept)
}

func (s *API) coreUTXOChangesByIndex(ctx context.Context, _ *rest.Input, p *rest.MilestoneIndexParams) (any, error) {
	return s.utxoChanges(ctx, p.Index)
}

func (s *API) coreUTXOChangesByID(ctx context.Context, _ *rest.Input, p *rest.MilestoneIDParams) (any, error) {
	index, err := s.MilestoneIndexOf(ctx, p.MilestoneID)
	if err != nil {
		return nil, err
	}
	return s.utxoChanges(ctx, index)
}

// milestoneAnswer is a milestone payload in TIP-25 JSON, or its bytes when asked.
func (s *API) milestoneAnswer(ctx context.Context, index uint32, accept string) (any, error) {
	m, err := s.IndexedMilestone(ctx, index)
	if err != nil {
		return nil, err
	}
	if rest.WantsBytes(accept) {
		return rest.MediaBytes{Media: rest.SerializerMedia, Data: m.Payload}, nil
	}
	return rest.MilestonePayloadOf(m)
}

// utxoChanges lists the outputs an indexed milestone created and consumed
// (milestone_ledger_updates: one partition).
func (s *API) utxoChanges(ctx context.Context, index uint32) (any, error) {
	if _, err := s.IndexedMilestone(ctx, index); err != nil {
		return nil, err
	}
	updates, err := s.st.MilestoneUpdates(ctx, index)
	if err != nil {
		return nil, err
	}
	var created, consumed []chain.OutputID
	for _, u := range updates {
		id, err := chain.ParseOutputID(u.OutputID)
		if err != nil {
			return nil, fmt.Errorf("milestone %d: ledger update of output %q: %w", index, u.OutputID, err)
		}
		if u.IsSpent {
			consumed = append(consumed, id)
		} else {
			created = append(created, id)
		}
	}
	return tip25.UTXOChanges(index, created, consumed), nil
}

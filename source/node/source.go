package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// member reads confirmed milestones from one node; every request of a milestone goes
// to the same member, so a failure is attributable to its node.
type member struct {
	cfg     Config // URL is this node's
	host    string // the URL's host: the only name of the node in logs and metrics
	c       *client
	outputs *outputCache  // shared by the members of a Source
	reached *reachedCache // shared by the members of a Source
	health  health
}

// Milestone reads confirmed milestone index: its payload, whose signatures must pass
// keys before its cone is walked, its cone in white-flag order with the node's verdicts,
// and its ledger changes (asked for while the cone is walked).
func (s *member) Milestone(ctx context.Context, index uint32, keys chain.MilestoneKeys) (*chain.ConfirmedMilestone, error) {
	mp, err := s.milestonePayload(ctx, index)
	if err != nil {
		return nil, err
	}
	if err := keys.Verify(mp); err != nil {
		return nil, source.Refuse(fmt.Errorf("milestone %d fails verification: %w", index, err))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // the utxo-changes request of a milestone that fails
	utxo := s.utxoChanges(ctx, index)
	cone, err := s.walkCone(ctx, index, mp.Parents)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	msgs, err := whiteFlag(mp.Parents, cone)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: time.Unix(int64(mp.Timestamp), 0).UTC(),
		MilestoneID: mp.ID(), PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp, Messages: msgs}
	if err := s.ledger(ctx, cm, utxo); err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	return cm, nil
}

// milestonePayload fetches a milestone in binary and checks it is the one asked for.
func (s *member) milestonePayload(ctx context.Context, index uint32) (*chain.MilestonePayload, error) {
	route := fmt.Sprintf("/milestones/by-index/%d", index)
	raw, err := s.c.get(ctx, route, mimeBinary)
	if errors.Is(err, errNotFound) {
		return nil, source.Refuse(fmt.Errorf("milestone %d: %w (%w)", index, source.ErrNotHeld, err))
	}
	if err != nil {
		return nil, err
	}
	mp, err := chain.DecodeMilestonePayload(raw)
	switch {
	case err != nil:
		return nil, source.Refuse(fmt.Errorf("GET %s%s: %w", apiBase, route, err))
	case mp.Index != index:
		return nil, source.Refuse(fmt.Errorf("GET %s%s: the node answered milestone %d", apiBase, route, mp.Index))
	}
	return mp, nil
}

package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Source reads confirmed milestones from a node (source.Source).
type Source struct {
	cfg     Config
	c       *client
	outputs *outputCache
}

var _ source.Source = (*Source)(nil)

// New checks the configuration; it does not contact the node yet.
func New(cfg Config) (*Source, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	return &Source{cfg: cfg, c: newClient(cfg), outputs: newOutputCache(cfg.OutputCache)}, nil
}

// Milestone reads confirmed milestone index: its payload, its cone in white-flag order
// with the node's verdicts, and its ledger changes.
func (s *Source) Milestone(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	mp, err := s.milestonePayload(ctx, index)
	if err != nil {
		return nil, err
	}
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
	if err := s.ledger(ctx, cm); err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	return cm, nil
}

// milestonePayload fetches a milestone in binary and checks it is the one asked for.
func (s *Source) milestonePayload(ctx context.Context, index uint32) (*chain.MilestonePayload, error) {
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

// Unreferenced returns nothing: the node API has no route listing the blocks no
// milestone referenced yet (Hornet streams them only through its event API).
func (s *Source) Unreferenced(context.Context, uint32) ([]chain.UnreferencedMessage, error) {
	return nil, nil
}

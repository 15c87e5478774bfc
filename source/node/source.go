package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// member reads confirmed milestones from one node; every request of a milestone goes
// to the same member, so a failure is attributable to its node.
type member struct {
	cfg     Config // URL is this node's
	host    string // the URL's host: the only name of the node in logs and metrics
	c       *client
	outputs *outputCache  // shared by the members of a Source
	reached *reachedCache // shared by the members of a Source
	blocks  *blockCache   // shared by the members of a Source
	book    *walkBook     // shared by the members of a Source
	health  health
}

// Milestone reads confirmed milestone index and verifies it against net: its payload,
// whose signatures must pass net's keys before its cone is walked, its cone in
// white-flag order with the node's verdicts, and its ledger changes (asked for while the
// cone is walked). A node answering what fails verification is refused
// (source.Unverified) like one answering malformed bytes. The cone is walked from
// the blocks' bytes alone once the milestones before it were walked here (fromBytes),
// else, or when that walk cannot vouch for its cone, with the blocks' metadata.
func (s *member) Milestone(ctx context.Context, index uint32, net chain.Network) (*chain.VerifiedMilestone, error) {
	warm, walked := s.book.start(index)
	defer walked(-1)
	mp, err := s.milestonePayload(ctx, index)
	if err != nil {
		return nil, err
	}
	signed, err := net.Keys.Check(mp)
	if err != nil {
		return nil, source.Unverified(index, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // the utxo-changes request of a milestone that fails
	utxo := s.utxoChanges(ctx, index)
	msgs, err := s.cone(ctx, index, mp, warm, walked, utxo)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: time.Unix(int64(mp.Timestamp), 0).UTC(),
		MilestoneID: mp.ID(), PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp, Messages: msgs}
	if err := s.ledger(ctx, cm, utxo); err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	vm, err := chain.VerifySigned(cm, signed, net)
	if err != nil {
		return nil, source.Unverified(index, err)
	}
	return vm, nil
}

// cone walks milestone index's cone and orders it: from bytes alone when warm and that
// walk vouches for it, else with the metadata. It calls walked with the cone's size as
// soon as the cone is known, before its verdicts are read: the walks of later
// milestones wait for it.
func (s *member) cone(ctx context.Context, index uint32, mp *chain.MilestonePayload, warm bool,
	walked func(int), utxo func() (tip25.UTXOChangesJSON, error)) ([]chain.ReferencedMessage, error) {
	if warm {
		msgs, ok, err := s.fromBytes(ctx, index, mp, walked, utxo)
		if err != nil {
			return nil, err
		} else if ok {
			s.c.m.walks.WithLabelValues("bytes").Inc()
			return msgs, nil
		}
		s.c.m.walks.WithLabelValues("bytes_then_metadata").Inc()
	} else {
		s.c.m.walks.WithLabelValues("metadata").Inc()
	}
	cone, err := s.walkCone(ctx, index, mp.Parents)
	if err != nil {
		return nil, err
	}
	walked(len(cone))
	return whiteFlag(mp.Parents, cone)
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

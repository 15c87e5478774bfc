package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A synced milestone rebuilt from its rows as the source gave it (its payload, its cone in white-flag order with the verdicts, its ledger
// changes): what `indexer export` archives, so that it can be ingested again without a
// node.

// archiveReads bounds the reads of one milestone's messages and spent outputs in flight.
const archiveReads = 32

// ConfirmedMilestone rebuilds milestone index from the store: the payload from
// milestones, the cone from messages_by_milestone and messages, the created outputs
// from the included transactions, and each consumed output as created (from its
// transactions and output rows, or its legacy row) with the transaction that spent it.
// ErrNotFound if the milestone is not indexed. The genesis milestone (no previous
// milestone) is refused: the outputs it creates without a transaction are in no
// per-milestone table.
func (st *Store) ConfirmedMilestone(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	rec, err := st.Milestone(ctx, index)
	if err != nil {
		return nil, err
	}
	mp, err := chain.DecodeMilestonePayload(rec.Payload)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: stored payload: %w", index, err)
	}
	if mp.PreviousMilestoneID == (chain.MilestoneID{}) {
		return nil, fmt.Errorf("milestone %d is the genesis milestone: its genesis outputs cannot be read back per milestone", index)
	}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: time.Unix(int64(mp.Timestamp), 0).UTC(),
		MilestoneID: mp.ID(), PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp}
	if cm.Messages, err = st.referencedMessages(ctx, index); err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	if err := st.ledgerChanges(ctx, cm); err != nil {
		return nil, fmt.Errorf("milestone %d: %w", index, err)
	}
	return cm, nil
}

// referencedMessages reads the messages a milestone referenced, in white-flag order,
// with their bytes and verdicts.
func (st *Store) referencedMessages(ctx context.Context, index uint32) ([]chain.ReferencedMessage, error) {
	ids, err := st.MilestoneMessages(ctx, index)
	if err != nil {
		return nil, err
	}
	out := make([]chain.ReferencedMessage, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(archiveReads)
	for i, id := range ids {
		g.Go(func() error {
			rm, err := st.referencedMessage(gctx, id, index)
			out[i] = rm
			return err
		})
	}
	return out, g.Wait()
}

func (st *Store) referencedMessage(ctx context.Context, id string, index uint32) (chain.ReferencedMessage, error) {
	var rm chain.ReferencedMessage
	m, err := st.Message(ctx, id)
	if err != nil {
		return rm, fmt.Errorf("message %s: %w", id, err)
	}
	if m.MilestoneIndex == nil || uint32(*m.MilestoneIndex) != index || m.InclusionState == nil || m.WhiteFlagIndex == nil {
		return rm, fmt.Errorf("message %s: its row is not that of a message milestone %d referenced", id, index)
	}
	rm.Raw, rm.WhiteFlagIndex = m.Raw, uint32(*m.WhiteFlagIndex)
	rm.InclusionState = chain.InclusionState(*m.InclusionState)
	if m.ConflictReason != nil {
		rm.ConflictReason = chain.ConflictReason(*m.ConflictReason)
	}
	if rm.ID, err = chain.ParseMessageID(id); err != nil {
		return rm, err
	}
	if rm.Message, err = chain.DecodeMessage(m.Raw); err != nil {
		return rm, fmt.Errorf("message %s: stored bytes: %w", id, err)
	}
	return rm, nil
}

// ledgerChanges fills cm.Created and cm.Consumed from its included transactions, as
// the node source derives them.
func (st *Store) ledgerChanges(ctx context.Context, cm *chain.ConfirmedMilestone) error {
	created, spends := cm.LedgerChanges()
	cm.Created = append(cm.Created, created...)
	cm.Consumed = make([]chain.LedgerSpent, len(spends))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(archiveReads)
	for i, s := range spends {
		g.Go(func() error {
			lo, err := st.CreatedOutput(gctx, s.OutputID)
			cm.Consumed[i] = chain.LedgerSpent{LedgerOutput: lo, SpentBy: s.SpentBy,
				SpentMilestoneIndex: cm.Index, SpentTimestamp: cm.Timestamp}
			return err
		})
	}
	return g.Wait()
}

// CreatedOutput reads an output as the ledger created it: its bytes, the message whose
// transaction created it (zero for a genesis output), its booking milestone and time.
func (st *Store) CreatedOutput(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, error) {
	lo := chain.LedgerOutput{OutputID: id}
	rows, err := st.OutputCreations(ctx, id)
	if err != nil {
		return lo, fmt.Errorf("output %s: %w", id, err)
	}
	for _, r := range rows {
		if r.InclusionState == nil || chain.InclusionState(*r.InclusionState) != chain.Included || r.MilestoneIndex == nil {
			continue
		}
		if lo.Output, err = chain.DecodeOutput(r.Data); err != nil {
			return lo, fmt.Errorf("output %s: stored bytes: %w", id, err)
		}
		if lo.MessageID, err = chain.ParseMessageID(r.MessageID); err != nil {
			return lo, fmt.Errorf("output %s: %w", id, err)
		}
		lo.MilestoneIndex = uint32(*r.MilestoneIndex)
		lo.Timestamp, err = st.bookingTime(ctx, &lo)
		return lo, err
	}
	return st.GenesisOutput(ctx, id)
}

// bookingTime is the creating milestone's time, from the output's own row (its
// milestone may precede the first indexed one and have no milestones row).
func (st *Store) bookingTime(ctx context.Context, lo *chain.LedgerOutput) (time.Time, error) {
	if lo.Output.Kind == chain.OutputLegacy {
		rows, err := st.LegacyOutput(ctx, lo.OutputID.String())
		if err != nil {
			return time.Time{}, fmt.Errorf("output %s: legacy row: %w", lo.OutputID, err)
		}
		return rows[0].Timestamp.UTC(), nil
	}
	r, err := st.BookedOutput(ctx, lo.OutputID, &lo.Output, lo.MilestoneIndex)
	if err != nil {
		return time.Time{}, fmt.Errorf("output %s: output row: %w", lo.OutputID, err)
	}
	return r.Timestamp.UTC(), nil
}

// GenesisOutput reads an output no transaction created (no transactions row): a legacy
// output, or a basic one (the only kinds a genesis snapshot holds whose row is found by
// output ID). ErrNotFound when it is neither.
func (st *Store) GenesisOutput(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, error) {
	lo := chain.LedgerOutput{OutputID: id}
	legacy, err := st.LegacyOutput(ctx, id.String())
	if err == nil {
		r := legacy[0]
		lo.MilestoneIndex, lo.Timestamp = uint32(r.MilestoneIndex), r.Timestamp.UTC()
		lo.Output, err = chain.DecodeOutput(r.Data)
		return lo, err
	}
	if !errors.Is(err, ErrNotFound) {
		return lo, err
	}
	rows, _, err := st.OutputVersions(ctx, chain.OutputBasic, id.String(), PageRequest{Size: maxBookedVersions})
	if err != nil {
		return lo, err
	}
	for _, r := range rows {
		if !r.Pending() && r.OutputID == id.String() {
			lo.MilestoneIndex, lo.Timestamp = uint32(r.MilestoneIndex), r.Timestamp.UTC()
			lo.Output, err = chain.DecodeOutput(r.Data)
			return lo, err
		}
	}
	return lo, fmt.Errorf("output %s: %w (no creation row in transactions, legacy_outputs or basic_outputs)", id, ErrNotFound)
}

package verify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// rebuild reconstructs what milestone index confirmed from stored data: the signed
// payload of its milestones row, the message IDs of its messages_by_milestone partition
// and each message's stored bytes (decoded with chain) with the milestone's verdict;
// its ledger changes follow from the included transactions in those bytes, and a spent
// output's creation from the transactions row its creating milestone wrote. What cannot
// be read is reported (and cm is nil when nothing can be derived). The messages are
// proved to be the whole cone the milestone signed before anything is derived from them
// (proveCone).
func (v *Verifier) rebuild(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	ms, err := v.st.Milestone(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		v.report(Discrepancy{Kind: KindMissing, Table: "milestones", Milestone: index,
			Key: map[string]any{"milestone_index": index}, Detail: "no milestone payload: re-ingest the milestone"})
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	payload, err := chain.DecodeMilestonePayload(ms.Payload)
	if err != nil || payload.Index != index {
		v.report(Discrepancy{Kind: KindUndecodable, Table: "milestones", Milestone: index,
			Key: map[string]any{"milestone_index": index}, Detail: fmt.Sprintf("payload does not decode to milestone %d: %v", index, err)})
		return nil, nil
	}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: time.Unix(int64(payload.Timestamp), 0).UTC(),
		MilestoneID: payload.ID(), PreviousMilestoneID: payload.PreviousMilestoneID, Milestone: payload}
	listing, err := v.st.MilestoneListing(ctx, index)
	if err != nil {
		return nil, err
	}
	whole := true
	for _, l := range listing {
		rm, ok, err := v.message(ctx, index, l.MessageID)
		if err != nil {
			return nil, err
		}
		if !ok {
			whole = false
			continue
		}
		cm.Messages = append(cm.Messages, rm)
	}
	if !whole {
		v.needsReingest[index] = true
	}
	if err := v.proveCone(ctx, cm, listing); err != nil {
		return nil, err
	}
	return cm, v.ledgerChanges(ctx, cm)
}

// message reads and decodes one referenced message; a missing or undecodable row is
// reported (its bytes are only at the node: the milestone must be re-ingested).
func (v *Verifier) message(ctx context.Context, index uint32, id string) (chain.ReferencedMessage, bool, error) {
	key := map[string]any{"message_id": id}
	rec, err := v.st.Message(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		v.report(Discrepancy{Kind: KindMissing, Table: "messages", Milestone: index, Key: key,
			Detail: "listed in messages_by_milestone, no messages row: re-ingest the milestone"})
		return chain.ReferencedMessage{}, false, nil
	}
	if err != nil {
		return chain.ReferencedMessage{}, false, err
	}
	rm, err := decodeRecord(rec, id)
	if err != nil {
		v.report(Discrepancy{Kind: KindUndecodable, Table: "messages", Milestone: index, Key: key, Detail: err.Error()})
		return chain.ReferencedMessage{}, false, nil
	}
	return rm, true, nil
}

// decodeRecord is a stored message with its verdict: its bytes decode with chain and hash
// to id, and its row holds a white-flag index and an inclusion state.
func decodeRecord(rec store.MessageRecord, id string) (chain.ReferencedMessage, error) {
	m, err := chain.DecodeMessage(rec.Raw)
	if err == nil && chain.MessageIDOf(rec.Raw).String() != id {
		err = errors.New("bytes do not hash to the message ID")
	}
	if err == nil && (rec.WhiteFlagIndex == nil || rec.InclusionState == nil) {
		err = errors.New("no white-flag index or inclusion state")
	}
	if err != nil {
		return chain.ReferencedMessage{}, err
	}
	rm := chain.ReferencedMessage{ID: chain.MessageIDOf(rec.Raw), Raw: rec.Raw, Message: m,
		WhiteFlagIndex: uint32(*rec.WhiteFlagIndex), InclusionState: chain.InclusionState(*rec.InclusionState)}
	if rec.ConflictReason != nil {
		rm.ConflictReason = chain.ConflictReason(*rec.ConflictReason)
	}
	return rm, nil
}

// ledgerChanges fills cm.Created and cm.Consumed from its included transactions.
func (v *Verifier) ledgerChanges(ctx context.Context, cm *chain.ConfirmedMilestone) error {
	created, inputs := cm.LedgerChanges()
	cm.Created = append(cm.Created, created...)
	for _, in := range inputs {
		lo, ok, err := v.creation(ctx, in.OutputID)
		if err != nil {
			return err
		}
		if !ok {
			v.unresolved = append(v.unresolved, in)
			if err := v.uncheckedSpend(ctx, cm.Index, in); err != nil {
				return err
			}
			continue
		}
		cm.Consumed = append(cm.Consumed, chain.LedgerSpent{LedgerOutput: lo, SpentBy: in.SpentBy,
			SpentMilestoneIndex: cm.Index, SpentTimestamp: cm.Timestamp})
	}
	return nil
}

// creation is an output as its creating milestone wrote it, from the transactions row
// of the included message that created it; false for an output no indexed transaction
// created (a genesis output, or one created before the first indexed milestone whose
// creation the node could not give).
func (v *Verifier) creation(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, bool, error) {
	rows, err := v.st.OutputCreations(ctx, id)
	if err != nil {
		return chain.LedgerOutput{}, false, err
	}
	for _, r := range rows {
		if r.InclusionState == nil || chain.InclusionState(*r.InclusionState) != chain.Included || r.MilestoneIndex == nil {
			continue
		}
		o, err := chain.DecodeOutput(r.Data)
		msgID, err2 := chain.ParseMessageID(r.MessageID)
		if err != nil || err2 != nil {
			continue
		}
		at, err := v.bookingTime(ctx, id, &o, uint32(*r.MilestoneIndex))
		if err != nil {
			return chain.LedgerOutput{}, false, err
		}
		return chain.LedgerOutput{OutputID: id, MessageID: msgID, Output: o,
			MilestoneIndex: uint32(*r.MilestoneIndex), Timestamp: at}, true, nil
	}
	return chain.LedgerOutput{}, false, nil
}

// bookingTime is the timestamp of the milestone that booked output id (store.MilestoneTime
// keeps what it read: spends of one milestone mostly consume outputs of a few recent
// ones). A milestone before the first indexed one (a snapshot bootstrap's outputs, or a
// creation the node gave with a spend) has no milestones row: the output's own row
// holds the time then.
func (v *Verifier) bookingTime(ctx context.Context, id chain.OutputID, o *chain.Output, index uint32) (time.Time, error) {
	t, err := v.st.MilestoneTime(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		var r store.OutputRow
		r, err = v.st.BookedOutput(ctx, id, o, index)
		t = r.Timestamp.UTC()
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("milestone %d (creating spent output %s): %w", index, id, err)
	}
	return t, nil
}

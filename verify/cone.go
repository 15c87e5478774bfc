package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// proveCone proves that the messages rebuilt from the listing are the milestone's whole
// cone: their white-flag indexes (the listing's and each message row's) run 0..n-1, and
// both Merkle roots recomputed over them in that order equal the roots the milestone
// signed. Anything else is an incomplete cone. When the listing's messages prove the
// roots, only their indexes are wrong and they are renumbered by position; otherwise
// the cone is walked again from the milestone's parents through the stored messages
// that name the milestone (a lost listing row leaves its message there). A walk that
// proves the roots replaces the listing, so the rows it implies are checked and
// rewritten; without one the milestone is re-ingested.
func (v *Verifier) proveCone(ctx context.Context, cm *chain.ConfirmedMilestone, listing []store.MilestoneMessage) error {
	holes := indexProblems(cm.Messages, listing)
	rootProblem := rootsProblem(cm)
	if holes == "" && rootProblem == "" {
		return nil
	}
	d := Discrepancy{Kind: KindIncompleteCone, Table: "messages_by_milestone", Milestone: cm.Index,
		Key: map[string]any{"milestone_index": cm.Index}, Detail: joinNonEmpty(holes, rootProblem)}
	msgs, proved := cm.Messages, rootProblem == ""
	if !proved {
		walked, err := v.walkCone(ctx, cm)
		if err != nil {
			return err
		}
		trial := *cm
		trial.Messages = walked
		if proved = rootsProblem(&trial) == ""; proved {
			msgs = walked
		}
	}
	if proved {
		for i := range msgs {
			msgs[i].WhiteFlagIndex = uint32(i)
		}
		cm.Messages = msgs
		d.Detail = joinNonEmpty(d.Detail, fmt.Sprintf("the stored messages hold the whole cone (%d messages)", len(msgs)))
		d.Repair = "rewrite: the listing and message rows of the proven cone are written again at the wall clock"
	} else {
		v.needsReingest[cm.Index] = true
		d.Repair = repairOf(Discrepancy{Table: "messages", Kind: KindMissing})
	}
	v.report(d)
	return nil
}

// indexProblems says where white-flag indexes do not run 0..n-1: the listing's keys, and
// each message row against its listing key ("" when they do).
func indexProblems(msgs []chain.ReferencedMessage, listing []store.MilestoneMessage) string {
	var out []string
	listed := map[string]int32{}
	for i, l := range listing {
		if int(l.WhiteFlagIndex) != i && len(out) == 0 {
			out = append(out, fmt.Sprintf("the listing holds white-flag index %d at position %d (indexes must run 0..%d)",
				l.WhiteFlagIndex, i, len(listing)-1))
		}
		listed[l.MessageID] = l.WhiteFlagIndex
	}
	for _, rm := range msgs {
		if want := listed[rm.ID.String()]; int64(rm.WhiteFlagIndex) != int64(want) {
			out = append(out, fmt.Sprintf("message %s: its row says white-flag index %d, the listing %d",
				rm.ID, rm.WhiteFlagIndex, want))
			break
		}
	}
	return strings.Join(out, "; ")
}

// rootsProblem compares the Merkle roots of cm's messages, in their order, with the
// roots its milestone signed ("" when both match).
func rootsProblem(cm *chain.ConfirmedMilestone) string {
	inclusion, applied := cm.MerkleRoots()
	var out []string
	if want := cm.Milestone.InclusionMerkleRoot; inclusion != want {
		out = append(out, fmt.Sprintf("the %d messages give inclusion Merkle root 0x%x, the milestone signed 0x%x",
			len(cm.Messages), inclusion, want))
	}
	if want := cm.Milestone.AppliedMerkleRoot; applied != want {
		out = append(out, fmt.Sprintf("their included transactions give applied Merkle root 0x%x, the milestone signed 0x%x",
			applied, want))
	}
	return strings.Join(out, "; ")
}

// walkCone orders the cone again (chain.WhiteFlagOrder) from the milestone's parents
// through the stored messages whose rows name the milestone, without the listing.
func (v *Verifier) walkCone(ctx context.Context, cm *chain.ConfirmedMilestone) ([]chain.ReferencedMessage, error) {
	found := map[chain.MessageID]chain.ReferencedMessage{}
	var failed error
	order := chain.WhiteFlagOrder(cm.Milestone.Parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		if failed != nil {
			return nil, false
		}
		rm, ok, err := v.coneMessage(ctx, cm.Index, id)
		if err != nil || !ok {
			failed = err
			return nil, false
		}
		found[id] = rm
		return rm.Message.Parents, true
	})
	if failed != nil {
		return nil, failed
	}
	msgs := make([]chain.ReferencedMessage, len(order))
	for i, id := range order {
		msgs[i] = found[id]
	}
	return msgs, nil
}

// coneMessage is a stored message that belongs to milestone index's cone: its row names
// the milestone and its bytes decode; false for any other (an older milestone's, a solid
// entry point, one not stored).
func (v *Verifier) coneMessage(ctx context.Context, index uint32, id chain.MessageID) (chain.ReferencedMessage, bool, error) {
	rec, err := v.st.Message(ctx, id.String())
	if errors.Is(err, store.ErrNotFound) {
		return chain.ReferencedMessage{}, false, nil
	}
	if err != nil || rec.MilestoneIndex == nil || uint32(*rec.MilestoneIndex) != index {
		return chain.ReferencedMessage{}, false, err
	}
	rm, err := decodeRecord(rec, id.String())
	return rm, err == nil, nil
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

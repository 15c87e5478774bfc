package store

import (
	"encoding/hex"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Message variants, as messages.variant stores them.
const (
	messageNone        = "none"
	messageTaggedData  = "tagged_data"
	messageTransaction = "transaction"
	messageMilestone   = "milestone"
)

// messageVariant is the variant a message is stored under: its payload's kind.
func messageVariant(m *chain.Message) string {
	switch m.Payload.(type) {
	case *chain.Transaction:
		return messageTransaction
	case *chain.MilestonePayload:
		return messageMilestone
	case *chain.TaggedData:
		return messageTaggedData
	}
	return messageNone
}

// TagText is a tag as the tags table, the tag hints and the metrics cache store it:
// 0x-hex, "" for no tag.
func TagText(tag []byte) string {
	if len(tag) == 0 {
		return ""
	}
	return "0x" + hex.EncodeToString(tag)
}

// referencedMessage adds the rows of a message a milestone referenced.
func (b *builder) referencedMessage(w where, rm *chain.ReferencedMessage) {
	m, id := rm.Message, rm.ID.String()
	rec := MessageRecord{ID: id, Version: int8(m.ProtocolVersion), Raw: rm.Raw, Variant: messageVariant(m),
		Parents: parentStrings(m), MilestoneIndex: ptr(int32(w.index)), WhiteFlagIndex: ptr(int32(rm.WhiteFlagIndex)),
		InclusionState: w.state, ConflictReason: ptr(int8(rm.ConflictReason))}
	b.addRow(cql.InsertReferencedMessage, w.ts, "", &rec)
	b.add(cql.InsertMessageByMilestone, w.ts, "messages_by_milestone", int32(w.index), int32(rm.WhiteFlagIndex), id)
	for _, p := range rec.Parents {
		child := ChildRow{ParentID: p, MessageID: id, MilestoneIndex: rec.MilestoneIndex, Timestamp: w.at,
			InclusionState: w.state}
		b.addRow(cql.InsertChild, w.ts, "parents/"+p, &child)
	}
	b.messageTag(w, id, m)
	b.transaction(w, id, m)
}

// unreferencedMessage adds the rows of a message seen but not referenced yet.
func (b *builder) unreferencedMessage(w where, um *chain.UnreferencedMessage) {
	m, id := um.Message, um.ID.String()
	rec := MessageRecord{ID: id, Version: int8(m.ProtocolVersion), Raw: um.Raw, Variant: messageVariant(m),
		Parents: parentStrings(m), EstMilestoneIndex: ptr(int32(w.index)), SeenAt: ptr(w.at)}
	b.addRow(cql.InsertUnreferencedMessage, w.ts, "", &rec)
	for _, p := range rec.Parents {
		child := ChildRow{ParentID: p, MessageID: id, EstMilestoneIndex: rec.EstMilestoneIndex, Timestamp: w.at}
		b.addRow(cql.InsertUnreferencedChild, w.ts, "parents/"+p, &child)
	}
	b.messageTag(w, id, m)
	b.transaction(w, id, m)
	if tx := m.TransactionOf(); tx != nil {
		b.pendingOutputs(w, id, tx)
	}
}

func parentStrings(m *chain.Message) []string {
	out := make([]string, len(m.Parents))
	for i, p := range m.Parents {
		out[i] = p.String()
	}
	return out
}

// messageTag indexes a message under its tag (pending or confirmed, as w says).
func (b *builder) messageTag(w where, id string, m *chain.Message) {
	tag := TagText(m.Tag())
	if tag == "" {
		return
	}
	row := TagRow{Tag: tag, RangeID: w.rng, MilestoneIndex: int32(w.index), Timestamp: w.at, MessageID: id,
		InclusionState: w.state}
	st := cql.InsertTag
	if w.pending() {
		st = cql.InsertPendingTag
	}
	b.addRow(st, w.ts, tagPartition(tag, w.rng), &row, w.ttlArgs()...)
	b.Hints.AddTag(tag, TagKindMessage, w.rng)
}

// tagPartition names a tags partition for Apply's single-partition batches.
func tagPartition(tag string, rng int32) string { return "tags/" + tag + "/" + strconv.Itoa(int(rng)) }

// dropPendingTag deletes the pending tag row of a message now referenced.
func (b *builder) dropPendingTag(ts int64, m *chain.Message, id chain.MessageID, mark PendingMark) {
	tag := TagText(m.Tag())
	if tag == "" {
		return
	}
	row := TagRow{Tag: tag, RangeID: PendingRange, Timestamp: mark.SeenAt, MilestoneIndex: int32(mark.Est),
		MessageID: id.String()}
	b.addRow(cql.DeletePendingTag, ts, tagPartition(tag, PendingRange), &row)
}

// milestone writes the milestone's row, and the message ID of each milestone whose
// carrying message this cone holds (normally the previous one): a milestone's own message
// is referenced only by the next milestone.
func (b *builder) milestone(ts int64, cm *chain.ConfirmedMilestone) {
	b.add(cql.InsertMilestone, ts, "", int32(cm.Index), cm.MilestoneID.String(), cm.Timestamp.Unix(), cm.Milestone.Encode())
	b.add(cql.InsertMilestoneID, ts, "", cm.MilestoneID.String(), int32(cm.Index))
	b.listMilestone(ts, cm.Index, cm.MilestoneID.String(), cm.Timestamp.Unix())
	b.receipt(ts, cm)
	for index, msgID := range cm.CarriedMilestones() {
		b.add(cql.SetMilestoneMessage, ts, "", msgID.String(), int32(index))
		b.listMilestoneMessage(ts, index, msgID.String())
	}
}

package store

import (
	"context"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// MessageRecord is a messages row: the raw message and what the indexer knows about it.
// Pointer fields are null until the message is referenced (or were never set).
type MessageRecord struct {
	ID                string
	Variant           string
	Parents           []string
	IsSolid           *bool
	MilestoneIndex    *int32 // nil: not referenced by a milestone yet
	InclusionState    *int8
	ShouldPromote     *bool
	ShouldReattach    *bool
	ConflictReason    *int8
	WhiteFlagIndex    *int32
	EstMilestoneIndex *int32
	SeenAt            *time.Time
	Version           int8
	Raw               []byte
	Proof             []byte
}

// Message reads a message with its metadata (seed select 3); ErrNotFound if unknown.
func (st *Store) Message(ctx context.Context, id string) (MessageRecord, error) {
	var m MessageRecord
	err := st.S.Scan(ctx, cql.MessageFull, []any{id}, append(m.metadataColumns(), &m.Version, &m.Raw, &m.Proof)...)
	return m, notFound(err)
}

// MessageMetadata reads a message's metadata without its bytes (seed select 2).
func (st *Store) MessageMetadata(ctx context.Context, id string) (MessageRecord, error) {
	var m MessageRecord
	err := st.S.Scan(ctx, cql.MessageMetadata, []any{id}, m.metadataColumns()...)
	return m, notFound(err)
}

// metadataColumns are the destinations of the metadata columns, in select order.
func (m *MessageRecord) metadataColumns() []any {
	return []any{&m.ID, &m.Variant, &m.Parents, &m.IsSolid, &m.MilestoneIndex, &m.InclusionState,
		&m.ShouldPromote, &m.ShouldReattach, &m.ConflictReason, &m.WhiteFlagIndex, &m.EstMilestoneIndex, &m.SeenAt}
}

// MessageRaw reads a message's bytes (seed select 1); ErrNotFound if unknown.
func (st *Store) MessageRaw(ctx context.Context, id string) ([]byte, error) {
	var raw []byte
	err := st.S.Scan(ctx, cql.MessageRaw, []any{id}, &raw)
	return raw, notFound(err)
}

// ChildRow is one child of a message (a message naming it as a parent).
type ChildRow struct {
	MessageID         string
	MilestoneIndex    *int32 // nil: the child is not referenced yet
	EstMilestoneIndex *int32
	Timestamp         time.Time // milestone time, or when an unreferenced child was seen
	InclusionState    *int8
}

// ChildrenPage reads one page of a message's children, newest first, optionally within tr.
func (st *Store) ChildrenPage(ctx context.Context, parentID string, tr TimeRange, req PageRequest) ([]ChildRow, []byte, error) {
	stmt, args := cql.Children, []any{parentID}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = cql.ChildrenTime, append(args, from, to)
	}
	return cql.CollectPage(ctx, st.S, stmt, args, req.Size, req.State, func(it *gocql.Iter, r *ChildRow) bool {
		return it.Scan(&r.MilestoneIndex, &r.EstMilestoneIndex, &r.Timestamp, &r.MessageID, &r.InclusionState)
	})
}

// MilestoneRecord is a milestones row. MessageID is empty until the next milestone,
// which references the message carrying this one, is indexed.
type MilestoneRecord struct {
	Index       uint32
	MessageID   string
	MilestoneID string
	Timestamp   int64  // unix seconds
	Payload     []byte // the signed milestone payload as the network serialized it
}

// Milestone reads one milestone by index; ErrNotFound if it is not indexed (a row that
// holds only the message ID, written by the next milestone first, is not indexed yet).
func (st *Store) Milestone(ctx context.Context, index uint32) (MilestoneRecord, error) {
	m := MilestoneRecord{Index: index}
	var msgID, msID *string
	var ts *int64
	err := st.S.Scan(ctx, cql.MilestoneByIndex, []any{int32(index)}, &msgID, &msID, &ts, &m.Payload)
	if err == nil && (msID == nil || ts == nil) {
		err = gocql.ErrNotFound
	}
	if err != nil {
		return m, notFound(err)
	}
	m.MilestoneID, m.Timestamp = *msID, *ts
	if msgID != nil {
		m.MessageID = *msgID
	}
	return m, nil
}

// TagRow is one message indexed under a tag.
type TagRow struct {
	RangeID        int32 // the partition it was read from
	MessageID      string
	MilestoneIndex int32 // estimated for a message not referenced yet
	Timestamp      time.Time
	InclusionState *int8 // nil in the pending partition
}

// TagPage reads one page of the messages with a tag in partition rng, newest first.
func (st *Store) TagPage(ctx context.Context, tag string, rng int32, tr TimeRange, req PageRequest) ([]TagRow, []byte, error) {
	stmt, args := cql.TagMessages, []any{tag, rng}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = cql.TagMessagesTime, append(args, from, to)
	}
	return cql.CollectPage(ctx, st.S, stmt, args, req.Size, req.State, func(it *gocql.Iter, r *TagRow) bool {
		r.RangeID = rng
		return it.Scan(&r.MilestoneIndex, &r.Timestamp, &r.MessageID, &r.InclusionState)
	})
}

package store

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// MessageRecord is a messages row: the raw message and what the indexer knows about it.
// Pointer fields are null until the message is referenced (or were never set).
type MessageRecord struct {
	ID                string     `cql:"message_id"`
	Variant           string     `cql:"variant"`
	Parents           []string   `cql:"parents"`
	IsSolid           *bool      `cql:"is_solid"`
	MilestoneIndex    *int32     `cql:"milestone_index"` // nil: not referenced by a milestone yet
	InclusionState    *int8      `cql:"inclusion_state"`
	ShouldPromote     *bool      `cql:"should_promote"`
	ShouldReattach    *bool      `cql:"should_reattach"`
	ConflictReason    *int8      `cql:"conflict_reason"`
	WhiteFlagIndex    *int32     `cql:"white_flag_index"`
	EstMilestoneIndex *int32     `cql:"est_milestone_index"`
	SeenAt            *time.Time `cql:"seen_at"`
	Version           int8       `cql:"version"`
	Raw               []byte     `cql:"message"`
	Proof             []byte     `cql:"proof"`
}

// Message reads a message with its metadata (seed select 3); ErrNotFound if unknown.
func (st *Store) Message(ctx context.Context, id string) (MessageRecord, error) {
	var m MessageRecord
	err := cql.GetRecord(ctx, st.s, cql.MessageFull, []any{id}, &m)
	return m, notFound(err)
}

// MessageMetadata reads a message's metadata without its bytes (seed select 2).
func (st *Store) MessageMetadata(ctx context.Context, id string) (MessageRecord, error) {
	var m MessageRecord
	err := cql.GetRecord(ctx, st.s, cql.MessageMetadata, []any{id}, &m)
	return m, notFound(err)
}

// MessageRaw reads a message's bytes (seed select 1); ErrNotFound if unknown.
func (st *Store) MessageRaw(ctx context.Context, id string) ([]byte, error) {
	var raw []byte
	err := st.s.Scan(ctx, cql.MessageRaw, []any{id}, &raw)
	return raw, notFound(err)
}

// ChildRow is one child of a message (a message naming it as a parent).
type ChildRow struct {
	ParentID          string    `cql:"parent_id"` // set by the writer; the reader asked for it
	MessageID         string    `cql:"message_id"`
	MilestoneIndex    *int32    `cql:"milestone_index"` // nil: the child is not referenced yet
	EstMilestoneIndex *int32    `cql:"est_milestone_index"`
	Timestamp         time.Time `cql:"ms_timestamp"` // milestone time, or when an unreferenced child was seen
	InclusionState    *int8     `cql:"inclusion_state"`
}

// ChildrenPage reads one page of a message's children, newest first, optionally within tr.
func (st *Store) ChildrenPage(ctx context.Context, parentID string, tr TimeRange, req PageRequest) ([]ChildRow, []byte, error) {
	stmt, args := cql.Children, []any{parentID}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = cql.ChildrenTime, append(args, from, to)
	}
	return readRows[ChildRow](ctx, st, stmt, args, req)
}

// TagRow is one message indexed under a tag.
type TagRow struct {
	Tag            string    `cql:"tag"`         // set by the writer; the reader asked for it
	RangeID        int32     `cql:"ms_range_id"` // the partition it was read from
	MessageID      string    `cql:"message_id"`
	MilestoneIndex int32     `cql:"milestone_index"` // estimated for a message not referenced yet
	Timestamp      time.Time `cql:"ms_timestamp"`
	InclusionState *int8     `cql:"inclusion_state"` // nil in the pending partition
}

// TagPage reads one page of the messages with a tag in partition rng, newest first.
func (st *Store) TagPage(ctx context.Context, tag string, rng int32, tr TimeRange, req PageRequest) ([]TagRow, []byte, error) {
	stmt, args := cql.TagMessages, []any{tag, rng}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = cql.TagMessagesTime, append(args, from, to)
	}
	rows, next, err := readRows[TagRow](ctx, st, stmt, args, req)
	for i := range rows {
		rows[i].RangeID = rng
	}
	return rows, next, err
}

// ReferencedAfter reports whether a message has a child (a message naming it as a
// parent) that a milestone after index referenced.
func (st *Store) ReferencedAfter(ctx context.Context, messageID string, index uint32) (bool, error) {
	req := PageRequest{Size: 100}
	for {
		rows, next, err := st.ChildrenPage(ctx, messageID, TimeRange{}, req)
		if err != nil {
			return false, fmt.Errorf("children of %s: %w", messageID, err)
		}
		for _, r := range rows {
			if r.MilestoneIndex != nil && uint32(*r.MilestoneIndex) > index {
				return true, nil
			}
		}
		if len(next) == 0 {
			return false, nil
		}
		req.State = next
	}
}

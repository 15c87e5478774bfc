package api

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// messageAnswer is GET /messages/{id}: the decoded message and its metadata.
type messageAnswer struct {
	messageJSON
	Metadata metadataJSON `json:"metadata"`
}

// final: a message's answer no longer changes once a milestone referenced it.
func (a messageAnswer) final() bool { return a.Metadata.Referenced }

// metadataJSON is the TIP-25 message metadata the indexer keeps.
type metadataJSON struct {
	Variant string `json:"variant,omitempty"`
	stateJSON
	ConflictReason     *int8  `json:"conflictReason,omitempty"`
	ConflictReasonName string `json:"conflictReasonName,omitempty"`
	WhiteFlagIndex     *int32 `json:"whiteFlagIndex,omitempty"`
	IsSolid            *bool  `json:"isSolid,omitempty"`
	ShouldPromote      *bool  `json:"shouldPromote,omitempty"`
	ShouldReattach     *bool  `json:"shouldReattach,omitempty"`
	SeenAt             *int64 `json:"seenAt,omitempty"` // unix seconds, unreferenced messages
}

func newMetadataJSON(m *store.MessageRecord) metadataJSON {
	j := metadataJSON{Variant: m.Variant, stateJSON: newState(m.MilestoneIndex, m.InclusionState, m.EstMilestoneIndex),
		ConflictReason: m.ConflictReason, WhiteFlagIndex: m.WhiteFlagIndex, IsSolid: m.IsSolid,
		ShouldPromote: m.ShouldPromote, ShouldReattach: m.ShouldReattach}
	if m.ConflictReason != nil {
		j.ConflictReasonName = chain.ConflictReason(*m.ConflictReason).String()
	}
	if m.SeenAt != nil {
		seen := m.SeenAt.Unix()
		j.SeenAt = &seen
	}
	return j
}

func (s *Server) message(ctx context.Context, in *input) (any, error) {
	return s.messageByID(ctx, in.text("id"), in.hrp)
}

func (s *Server) messageByID(ctx context.Context, id, hrp string) (any, error) {
	rec, m, err := s.indexedMessage(ctx, "message", id)
	if err != nil {
		return nil, err
	}
	mj, err := newMessageJSON(id, m, hrp)
	if err != nil {
		return nil, fmt.Errorf("message %s: %w", id, err)
	}
	return messageAnswer{*mj, newMetadataJSON(&rec)}, nil
}

func (s *Server) messageRaw(ctx context.Context, in *input) (any, error) {
	raw, err := s.indexedMessageRaw(ctx, "message", in.text("id"))
	if err != nil {
		return nil, err
	}
	return rawBytes(raw), nil
}

// childJSON is one child of a message.
type childJSON struct {
	MessageID string `json:"messageId"`
	stateJSON
	Timestamp int64 `json:"timestamp"` // milestone time, or when an unreferenced child was seen
}

func (s *Server) children(ctx context.Context, in *input) (any, error) {
	parent, tr := in.text("id"), timeRange(in)
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.ChildRow, []byte, error) {
		return s.st.ChildrenPage(ctx, parent, tr, req)
	}
	return walk(ctx, in, onePartition, fetch, nil, func(r *store.ChildRow) childJSON {
		return childJSON{MessageID: r.MessageID, stateJSON: newState(r.MilestoneIndex, r.InclusionState, r.EstMilestoneIndex),
			Timestamp: r.Timestamp.Unix()}
	})
}

// tagMessageJSON is one message listed under a tag.
type tagMessageJSON struct {
	MessageID string `json:"messageId"`
	stateJSON
	Timestamp int64 `json:"timestamp"`
}

func (s *Server) tagMessages(ctx context.Context, in *input) (any, error) {
	tag, tr := in.text("tag"), timeRange(in)
	parts, err := s.st.TagRanges(ctx, tag, store.TagKindMessage)
	if err != nil {
		return nil, err
	}
	fetch := func(ctx context.Context, part int32, req store.PageRequest) ([]store.TagRow, []byte, error) {
		return s.st.TagPage(ctx, tag, part, tr, req)
	}
	return walk(ctx, in, parts, fetch, nil, func(r *store.TagRow) tagMessageJSON {
		return tagMessageJSON{MessageID: r.MessageID, Timestamp: r.Timestamp.Unix(),
			stateJSON: partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState)}
	})
}

func timeRange(in *input) store.TimeRange {
	return store.TimeRange{From: in.time("from"), To: in.time("to")}
}

package tables

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// MessageAnswer is GET /messages/{id}: the decoded message and its metadata.
type MessageAnswer struct {
	MessageJSON
	Metadata metadataJSON `json:"metadata"`
}

// Final: a message's answer no longer changes once a milestone referenced it.
func (a MessageAnswer) Final() bool { return a.Metadata.Referenced }

// metadataJSON is the TIP-25 message metadata the indexer keeps.
type metadataJSON struct {
	Variant string `json:"variant,omitempty"`
	StateJSON
	ConflictReason     *int8  `json:"conflictReason,omitempty"`
	ConflictReasonName string `json:"conflictReasonName,omitempty"`
	WhiteFlagIndex     *int32 `json:"whiteFlagIndex,omitempty"`
	IsSolid            *bool  `json:"isSolid,omitempty"`
	ShouldPromote      *bool  `json:"shouldPromote,omitempty"`
	ShouldReattach     *bool  `json:"shouldReattach,omitempty"`
	SeenAt             *int64 `json:"seenAt,omitempty"` // unix seconds, unreferenced messages
}

func newMetadataJSON(m *store.MessageRecord) metadataJSON {
	j := metadataJSON{Variant: m.Variant, StateJSON: newState(m.MilestoneIndex, m.InclusionState, m.EstMilestoneIndex),
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

// messageIDParams name a message by its ID.
type messageIDParams struct {
	ID string `path:"id" kind:"messageID" doc:"message ID"`
}

// timeRangeParams bound a list by its rows' times.
type timeRangeParams struct {
	From *time.Time `query:"from" kind:"time" doc:"only rows at or after this time (milestone timestamp)"`
	To   *time.Time `query:"to" kind:"time" doc:"only rows before this time"`
}

func (p *timeRangeParams) timeRange() store.TimeRange {
	var tr store.TimeRange
	if p.From != nil {
		tr.From = *p.From
	}
	if p.To != nil {
		tr.To = *p.To
	}
	return tr
}

func (s *API) message(ctx context.Context, in *rest.Input, p *messageIDParams) (any, error) {
	return s.messageByID(ctx, p.ID, in.HRP)
}

func (s *API) messageByID(ctx context.Context, id, hrp string) (any, error) {
	rec, m, err := s.IndexedMessage(ctx, "message", id)
	if err != nil {
		return nil, err
	}
	mj, err := newMessageJSON(id, m, hrp)
	if err != nil {
		return nil, fmt.Errorf("message %s: %w", id, err)
	}
	return MessageAnswer{*mj, newMetadataJSON(&rec)}, nil
}

func (s *API) messageRaw(ctx context.Context, _ *rest.Input, p *messageIDParams) (any, error) {
	raw, err := s.IndexedMessageRaw(ctx, "message", p.ID)
	if err != nil {
		return nil, err
	}
	return rest.RawBytes(raw), nil
}

// ChildJSON is one child of a message.
type ChildJSON struct {
	MessageID string `json:"messageId"`
	StateJSON
	Timestamp int64 `json:"timestamp"` // milestone time, or when an unreferenced child was seen
}

// childrenParams: a message's children within a time range.
type childrenParams struct {
	messageIDParams
	timeRangeParams
}

func (s *API) children(ctx context.Context, in *rest.Input, p *childrenParams) (any, error) {
	parent, tr := p.ID, p.timeRange()
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.ChildRow, []byte, error) {
		return s.st.ChildrenPage(ctx, parent, tr, req)
	}
	return rest.Walk(ctx, in, rest.OnePartition, fetch, nil, func(r *store.ChildRow) ChildJSON {
		return ChildJSON{MessageID: r.MessageID, StateJSON: newState(r.MilestoneIndex, r.InclusionState, r.EstMilestoneIndex),
			Timestamp: r.Timestamp.Unix()}
	})
}

// TagMessageJSON is one message listed under a tag.
type TagMessageJSON struct {
	MessageID string `json:"messageId"`
	StateJSON
	Timestamp int64 `json:"timestamp"`
}

// tagMessagesParams: the messages with a tag within a time range.
type tagMessagesParams struct {
	Tag string `path:"tag" kind:"tag" doc:"tag, 0x-hex"`
	timeRangeParams
}

func (s *API) tagMessages(ctx context.Context, in *rest.Input, p *tagMessagesParams) (any, error) {
	tag, tr := p.Tag, p.timeRange()
	parts, err := s.st.TagRanges(ctx, tag, store.TagKindMessage)
	if err != nil {
		return nil, err
	}
	fetch := func(ctx context.Context, part int32, req store.PageRequest) ([]store.TagRow, []byte, error) {
		return s.st.TagPage(ctx, tag, part, tr, req)
	}
	return rest.Walk(ctx, in, parts, fetch, nil, func(r *store.TagRow) TagMessageJSON {
		return TagMessageJSON{MessageID: r.MessageID, Timestamp: r.Timestamp.Unix(),
			StateJSON: partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState)}
	})
}

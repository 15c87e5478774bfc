package rest

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// Lookups of indexed rows the surfaces share: a row a client names is a 404 when it is
// not indexed; stored bytes that do not decode are a server error. what names the row
// in the answer ("block" on the node interfaces, "message" on the schema's read routes).

// MilestoneIndexOf finds an indexed milestone's index by its ID (milestones_by_id).
func (s *Reads) MilestoneIndexOf(ctx context.Context, id string) (uint32, error) {
	index, err := s.st.MilestoneIndexByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return 0, NotFound("milestone %s is not indexed", id)
	}
	return index, err
}

// IndexedMilestone reads a milestone's row; 404 when it is not indexed.
func (s *Reads) IndexedMilestone(ctx context.Context, index uint32) (store.MilestoneRecord, error) {
	m, err := s.st.Milestone(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		return m, NotFound("milestone %d is not indexed", index)
	}
	return m, err
}

// MilestonePayloadOf is a milestone row's payload in TIP-25 JSON.
func MilestonePayloadOf(m store.MilestoneRecord) (*tip25.MilestoneJSON, error) {
	mp, err := decodeStoredMilestone(m)
	if err != nil {
		return nil, err
	}
	return tip25.Milestone(mp)
}

// decodeStoredMilestone decodes a milestone row's payload.
func decodeStoredMilestone(m store.MilestoneRecord) (*chain.MilestonePayload, error) {
	mp, err := chain.DecodeMilestonePayload(m.Payload)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: stored payload does not decode: %w", m.Index, err)
	}
	return mp, nil
}

// IndexedMessageRaw reads a message's bytes.
func (s *Reads) IndexedMessageRaw(ctx context.Context, what, id string) ([]byte, error) {
	raw, err := s.st.MessageRaw(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, NotFound("%s %s is not indexed", what, id)
	}
	return raw, err
}

// IndexedMessage reads a message's row and decodes its bytes.
func (s *Reads) IndexedMessage(ctx context.Context, what, id string) (store.MessageRecord, *chain.Message, error) {
	rec, err := s.st.Message(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return rec, nil, NotFound("%s %s is not indexed", what, id)
	}
	if err != nil {
		return rec, nil, err
	}
	m, err := DecodeStoredMessage(what, id, rec.Raw)
	return rec, m, err
}

// DecodeStoredMessage decodes a message's stored bytes.
func DecodeStoredMessage(what, id string, raw []byte) (*chain.Message, error) {
	m, err := chain.DecodeMessage(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: stored bytes do not decode: %w", what, id, err)
	}
	return m, nil
}

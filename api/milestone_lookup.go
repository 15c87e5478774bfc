package api

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Milestone lookups the core and the explorer routes share: a milestone a client names
// is a 404 when it is not indexed.

// milestoneIndexOf finds an indexed milestone's index by its ID (milestones_by_id).
func (s *Server) milestoneIndexOf(ctx context.Context, id string) (uint32, error) {
	index, err := s.st.MilestoneIndexByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return 0, notFound("milestone %s is not indexed", id)
	}
	return index, err
}

// indexedMilestone reads a milestone's row; 404 when it is not indexed.
func (s *Server) indexedMilestone(ctx context.Context, index uint32) (store.MilestoneRecord, error) {
	m, err := s.st.Milestone(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		return m, notFound("milestone %d is not indexed", index)
	}
	return m, err
}

package rest

// The lists of milestones the schema's read routes and the explorer's share.

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// MilestonesListed says whether milestones_by_bucket lists every milestone: once it
// does, it always will, so the answer is kept once true.
func (s *Reads) MilestonesListed(ctx context.Context) (bool, error) {
	if s.listed.Load() {
		return true, nil
	}
	ready, err := s.st.MilestoneBucketsReady(ctx)
	if ready {
		s.listed.Store(true)
	}
	return ready, err
}

// MilestonesIn reads the indexed milestones of [start, end], newest first: from
// milestones_by_bucket once it lists every milestone, else one read per milestone.
func (s *Reads) MilestonesIn(ctx context.Context, start, end uint32) ([]store.MilestoneRecord, error) {
	switch listed, err := s.MilestonesListed(ctx); {
	case err != nil:
		return nil, err
	case !listed:
		return s.MilestonesOneByOne(ctx, start, end)
	}
	return s.st.MilestoneList(ctx, start, end)
}

// MilestonesOneByOne reads each milestone of [start, end] from the milestones table,
// newest first (a keyspace whose buckets are not filled yet): one read per milestone.
func (s *Reads) MilestonesOneByOne(ctx context.Context, start, end uint32) ([]store.MilestoneRecord, error) {
	found := make([]*store.MilestoneRecord, end-start+1)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(MaxParallelReads)
	for i := range found {
		g.Go(func() error {
			m, err := s.st.Milestone(ctx, end-uint32(i))
			if err != nil {
				return IgnoreNotFound(err)
			}
			found[i] = &m
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []store.MilestoneRecord
	for _, m := range found {
		if m != nil {
			out = append(out, *m)
		}
	}
	return out, nil
}

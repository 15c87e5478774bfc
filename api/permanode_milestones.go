package api

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// maxMilestoneRange bounds GET /milestones: two milestones_by_bucket partitions at most (or, until
// it is filled, one read per milestone).
const maxMilestoneRange = 1000

// milestoneJSON is a milestone; MessageID (the message carrying it) is known once the
// next milestone, whose cone holds that message, is indexed.
type milestoneJSON struct {
	Index       uint32               `json:"index"`
	MilestoneID string               `json:"milestoneId,omitempty"`
	MessageID   string               `json:"messageId,omitempty"`
	Timestamp   int64                `json:"timestamp"` // unix seconds
	Payload     *tip25.MilestoneJSON `json:"payload,omitempty"`
}

// final: a milestone's answer no longer changes once its messageId is known (written
// when the next milestone is).
func (a milestoneJSON) final() bool { return a.MessageID != "" }

func newMilestoneJSON(m store.MilestoneRecord) milestoneJSON {
	return milestoneJSON{Index: m.Index, MilestoneID: m.MilestoneID, MessageID: m.MessageID, Timestamp: m.Timestamp}
}

func (s *tablesAPI) milestone(ctx context.Context, _ *input, p *milestoneIndexParams) (any, error) {
	m, err := s.indexedMilestone(ctx, p.Index)
	if err != nil {
		return nil, err
	}
	j := newMilestoneJSON(m)
	j.Payload, err = milestonePayloadOf(m)
	return j, err
}

// milestoneRangeQuery is the range of GET /milestones.
type milestoneRangeQuery struct {
	Start uint32 `query:"start" kind:"index" required:"true" doc:"first milestone index"`
	End   uint32 `query:"end" kind:"index" required:"true" doc:"last milestone index (inclusive)"`
}

// milestones lists the indexed milestones of [start, end], newest first; milestones
// not indexed are left out.
func (s *tablesAPI) milestones(ctx context.Context, _ *input, p *milestoneRangeQuery) (any, error) {
	start, end := p.Start, p.End
	switch {
	case end < start:
		return nil, badParam("end", "%d is before start (%d)", end, start)
	case uint64(end)-uint64(start) >= maxMilestoneRange:
		return nil, badParam("end", "range of %d milestones is wider than %d", uint64(end)-uint64(start)+1, maxMilestoneRange)
	}
	listed, err := s.milestonesListed(ctx)
	if err != nil {
		return nil, err
	}
	var found []store.MilestoneRecord
	if listed {
		found, err = s.st.MilestoneList(ctx, start, end)
	} else {
		found, err = s.milestonesOneByOne(ctx, start, end)
	}
	if err != nil {
		return nil, err
	}
	return wholePage(found, newMilestoneJSON), nil
}

// syncJSON is GET /sync: which milestones are fully indexed.
type syncJSON struct {
	ChunkSize uint32        `json:"chunkSize"`
	Oldest    uint32        `json:"oldest"`
	Newest    uint32        `json:"newest"` // the newest fully indexed milestone (0: none)
	Synced    []store.Range `json:"synced"`
	Gaps      []store.Range `json:"gaps"`
	// Truncated: the summary keeps the newest ranges only; synced and gaps start at
	// synced[0], older ranges (down to oldest) are left out.
	Truncated bool `json:"truncated,omitempty"`
	// Unavailable: milestones the source refused as no longer held (a pruned node); the
	// indexer skips them, asks again slowly, and an import of an archive fills them.
	Unavailable []store.Range `json:"unavailable"`
}

func (s *tablesAPI) sync(ctx context.Context, _ *input) (any, error) {
	st, err := s.st.SyncView(ctx) // the sync summary plus the rows past it: two reads
	if err != nil {
		return nil, err
	}
	unavailable, err := s.st.Unavailable(ctx) // one more read: one indexer_meta row
	if err != nil {
		return nil, err
	}
	return syncJSON{ChunkSize: s.st.ChunkSize, Oldest: st.Oldest, Newest: st.Newest,
		Synced: nonNil(st.Synced), Gaps: nonNil(st.Gaps), Truncated: st.Truncated,
		Unavailable: nonNil(unavailable)}, nil
}

// nonNil keeps an empty list a JSON [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

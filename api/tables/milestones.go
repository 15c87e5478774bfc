package tables

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// maxMilestoneRange bounds GET /milestones: two milestones_by_bucket partitions at most (or, until
// it is filled, one read per milestone).
const maxMilestoneRange = 1000

// MilestoneJSON is a milestone; MessageID (the message carrying it) is known once the
// next milestone, whose cone holds that message, is indexed.
type MilestoneJSON struct {
	Index       uint32               `json:"index"`
	MilestoneID string               `json:"milestoneId,omitempty"`
	MessageID   string               `json:"messageId,omitempty"`
	Timestamp   int64                `json:"timestamp"` // unix seconds
	Payload     *tip25.MilestoneJSON `json:"payload,omitempty"`
}

// Final: a milestone's answer no longer changes once its messageId is known (written
// when the next milestone is).
func (a MilestoneJSON) Final() bool { return a.MessageID != "" }

func NewMilestoneJSON(m store.MilestoneRecord) MilestoneJSON {
	return MilestoneJSON{Index: m.Index, MilestoneID: m.MilestoneID, MessageID: m.MessageID, Timestamp: m.Timestamp}
}

func (s *API) milestone(ctx context.Context, _ *rest.Input, p *rest.MilestoneIndexParams) (any, error) {
	m, err := s.IndexedMilestone(ctx, p.Index)
	if err != nil {
		return nil, err
	}
	j := NewMilestoneJSON(m)
	j.Payload, err = rest.MilestonePayloadOf(m)
	return j, err
}

// milestoneRangeQuery is the range of GET /milestones.
type milestoneRangeQuery struct {
	Start uint32 `query:"start" kind:"index" required:"true" doc:"first milestone index"`
	End   uint32 `query:"end" kind:"index" required:"true" doc:"last milestone index (inclusive)"`
}

// milestones lists the indexed milestones of [start, end], newest first; milestones
// not indexed are left out.
func (s *API) milestones(ctx context.Context, _ *rest.Input, p *milestoneRangeQuery) (any, error) {
	start, end := p.Start, p.End
	switch {
	case end < start:
		return nil, rest.BadParam("end", "%d is before start (%d)", end, start)
	case uint64(end)-uint64(start) >= maxMilestoneRange:
		return nil, rest.BadParam("end", "range of %d milestones is wider than %d", uint64(end)-uint64(start)+1, maxMilestoneRange)
	}
	found, err := s.MilestonesIn(ctx, start, end)
	if err != nil {
		return nil, err
	}
	return rest.WholePage(found, NewMilestoneJSON), nil
}

// SyncJSON is GET /sync: which milestones are fully indexed.
type SyncJSON struct {
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

func (s *API) sync(ctx context.Context, _ *rest.Input) (any, error) {
	st, err := s.st.SyncView(ctx) // the sync summary plus the rows past it: two reads
	if err != nil {
		return nil, err
	}
	unavailable, err := s.st.Unavailable(ctx) // one more read: one indexer_meta row
	if err != nil {
		return nil, err
	}
	return SyncJSON{ChunkSize: s.chunkSize, Oldest: st.Oldest, Newest: st.Newest,
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

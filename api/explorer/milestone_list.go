package explorer

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// maxWindowsPerPage bounds the milestones_by_bucket windows one page of the milestone
// list reads; a page that meets a long run of unindexed milestones comes back short,
// with a cursor.
const maxWindowsPerPage = 4

// unixSecondsKind is a time as Chronicle takes it: unix seconds, an unsigned 32-bit integer.
var unixSecondsKind = rest.TypedKind(map[string]any{"type": "integer", "format": "int64", "minimum": 0,
	"maximum": 4294967295, "description": "unix seconds"}, rest.ParseUint32)

// milestoneCursorKind is Chronicle's milestone-list cursor, milestoneIndex.pageSize
// (read by readMilestoneQuery).
var milestoneCursorKind = rest.TypedKind(map[string]any{"type": "string", "pattern": `^\d+\.\d+$`,
	"description": "milestoneIndex.pageSize, from the previous page"}, func(_, v string) (string, error) { return v, nil })

// milestoneListParams are Chronicle's MilestonesPagination query.
type milestoneListParams struct {
	StartTimestamp *uint32 `query:"startTimestamp" kind:"unixSeconds" doc:"only milestones at or after this time (inclusive)"`
	EndTimestamp   *uint32 `query:"endTimestamp" kind:"unixSeconds" doc:"only milestones at or before this time (inclusive)"`
	sortParams
	PageSize *int    `query:"pageSize" kind:"clampedPageSize" doc:"items per page (from 1, default 100; above 1000 the page holds 1000, as maxResults says)"`
	Cursor   *string `query:"cursor" kind:"milestoneCursor" doc:"where the page starts (Chronicle's form)"`
}

// MilestonesJSON is Chronicle's MilestonesResponse, each item with its timestamp.
type MilestonesJSON struct {
	Items      []milestoneItemJSON `json:"items"`
	Cursor     string              `json:"cursor,omitempty"`
	MaxResults int                 `json:"maxResults"` // the page size in effect
}

type milestoneItemJSON struct {
	MilestoneID string `json:"milestoneId"`
	Index       uint32 `json:"index"`
	Timestamp   int64  `json:"timestamp"` // unix seconds
}

// milestoneQuery is a read of the milestone list: the inclusive index bounds, the
// order and the page size.
type milestoneQuery struct {
	first, last uint32
	oldest      bool
	size        int
}

// milestonesByTime lists the indexed milestones whose timestamps lie in
// [startTimestamp, endTimestamp] (both inclusive, as Chronicle), newest or oldest
// first. The time bounds become index bounds by bisecting the synced milestones'
// times (timestamps grow with the index); the rows come from milestones_by_bucket.
func (s *API) milestonesByTime(ctx context.Context, _ *rest.Input, p *milestoneListParams) (any, error) {
	q, cursor, err := readMilestoneQuery(p)
	if err != nil {
		return nil, err
	}
	span, err := s.st.SyncTip(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return MilestonesJSON{Items: []milestoneItemJSON{}, MaxResults: q.size}, nil
	}
	if err != nil {
		return nil, err
	}
	if q.first, q.last, err = s.timeBounds(ctx, span, p); err != nil {
		return nil, err
	}
	if cursor != nil && q.oldest {
		q.first = max(q.first, *cursor)
	} else if cursor != nil {
		q.last = min(q.last, *cursor)
	}
	from, to := int64(0), int64(^uint32(0))
	if p.StartTimestamp != nil {
		from = int64(*p.StartTimestamp)
	}
	if p.EndTimestamp != nil {
		to = int64(*p.EndTimestamp)
	}
	keep := func(m store.MilestoneRecord) bool { return m.Timestamp >= from && m.Timestamp <= to }
	return s.milestonePage(ctx, q, keep)
}

// readMilestoneQuery reads sort, pageSize and Chronicle's cursor (milestoneIndex.pageSize,
// whose page size wins over pageSize, as Chronicle's does).
func readMilestoneQuery(p *milestoneListParams) (milestoneQuery, *uint32, error) {
	q := milestoneQuery{oldest: p.oldest(), size: rest.DefaultPageSize}
	if p.PageSize != nil {
		q.size = *p.PageSize
	}
	if start, end := p.StartTimestamp, p.EndTimestamp; start != nil && end != nil && *end < *start {
		return q, nil, rest.BadParam("endTimestamp", "%d is before startTimestamp (%d)", *end, *start)
	}
	if p.Cursor == nil {
		return q, nil, nil
	}
	index, size, err := parseIndexCursor(*p.Cursor)
	if err != nil {
		return q, nil, err
	}
	q.size = size
	return q, &index, nil
}

// parseIndexCursor reads Chronicle's milestoneIndex.pageSize cursor (its page size
// clamped, as pageSize's).
func parseIndexCursor(v string) (uint32, int, error) {
	index, size, ok := strings.Cut(v, ".")
	if !ok {
		return 0, 0, rest.BadParam("cursor", "want milestoneIndex.pageSize, got %s", rest.Quote(v))
	}
	i, err := rest.ParseUint32("cursor", index)
	if err != nil {
		return 0, 0, err
	}
	n, err := parseClamped("cursor", size, rest.MaxPageSize)
	return i, n, err
}

func indexCursor(index uint32, size int) string {
	return strconv.FormatUint(uint64(index), 10) + "." + strconv.Itoa(size)
}

// timeBounds turns the time bounds into index bounds within the synced span.
func (s *API) timeBounds(ctx context.Context, span store.SyncSpan, p *milestoneListParams) (uint32, uint32, error) {
	first, last := span.Oldest, span.Newest
	if p.StartTimestamp != nil {
		at, err := s.firstAtOrAfter(ctx, span, int64(*p.StartTimestamp))
		if err != nil {
			return 0, 0, err
		}
		if first = at; at > span.Oldest {
			// Milestones indexed but not synced may lie between the synced one before and at.
			before, err := s.st.FloorSynced(ctx, span, at-1)
			if err != nil {
				return 0, 0, err
			}
			first = before + 1
		}
	}
	if p.EndTimestamp != nil {
		after, err := s.firstAtOrAfter(ctx, span, int64(*p.EndTimestamp)+1)
		if err != nil {
			return 0, 0, err
		}
		if after == span.Oldest {
			return 1, 0, nil // every synced milestone is later: an empty range
		}
		last = after - 1
	}
	return first, last, nil
}

// firstAtOrAfter is the first index of the synced span whose newest synced milestone
// at or before it has a timestamp >= t (span.Newest+1 when none has): a bisection
// over a time that never decreases with the index, two reads a step at most.
func (s *API) firstAtOrAfter(ctx context.Context, span store.SyncSpan, t int64) (uint32, error) {
	lo, hi := uint64(span.Oldest), uint64(span.Newest)+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		floor, err := s.st.FloorSynced(ctx, span, uint32(mid))
		if err != nil {
			return 0, err
		}
		at, err := s.st.MilestoneTime(ctx, floor)
		if err != nil {
			return 0, rest.MissingIsInternal(err)
		}
		if at.Unix() >= t {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uint32(lo), nil
}

// milestonePage reads q's milestones window by window in the sort order (bucket-aligned
// windows), keeping those keep accepts, up to one past the page, which names the cursor.
func (s *API) milestonePage(ctx context.Context, q milestoneQuery, keep func(store.MilestoneRecord) bool) (MilestonesJSON, error) {
	out := MilestonesJSON{Items: []milestoneItemJSON{}, MaxResults: q.size}
	first, last := int64(q.first), int64(q.last)
	for w := 0; first <= last; w++ {
		if w == maxWindowsPerPage {
			next := uint32(first)
			if !q.oldest {
				next = uint32(last)
			}
			out.Cursor = indexCursor(next, q.size)
			return out, nil
		}
		lo, hi := window(first, last, q.oldest)
		rows, err := s.MilestonesIn(ctx, uint32(lo), uint32(hi))
		if err != nil {
			return out, err
		}
		if q.oldest {
			slices.Reverse(rows)
			first = hi + 1
		} else {
			last = lo - 1
		}
		for _, m := range rows {
			if !keep(m) {
				continue
			}
			if len(out.Items) == q.size {
				out.Cursor = indexCursor(m.Index, q.size)
				return out, nil
			}
			out.Items = append(out.Items, milestoneItemJSON{MilestoneID: m.MilestoneID, Index: m.Index, Timestamp: m.Timestamp})
		}
	}
	return out, nil
}

// window is the bucket-aligned stretch of [first, last] read next: the oldest bucket's
// part for oldest first, else the newest's.
func window(first, last int64, oldest bool) (int64, int64) {
	if oldest {
		return first, min(last, (first/store.MilestoneBucket+1)*store.MilestoneBucket-1)
	}
	return max(first, last/store.MilestoneBucket*store.MilestoneBucket), last
}

package analytics

import (
	"context"
	"errors"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// familyCursorKind is a family series' cursor: opaque to clients, the index of the
// next page's newest point.
var familyCursorKind = rest.TypedKind(map[string]any{"type": "string", "description": "opaque, from the previous page"},
	func(name, v string) (uint32, error) {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return 0, rest.BadParam(name, "malformed (%s): pass the cursor of the previous page as it came", rest.Quote(v))
		}
		return uint32(n), nil
	})

var _ = rest.NamedKinds(map[string]rest.Kind{"familyCursor": familyCursorKind})

// familySeriesParams are the query of the family series routes.
type familySeriesParams struct {
	StartIndex *uint32 `query:"startIndex" kind:"index" doc:"first milestone index (inclusive; default 0)"`
	EndIndex   *uint32 `query:"endIndex" kind:"index" doc:"last milestone index (inclusive; default the newest with a row)"`
	PageSize   *int    `query:"pageSize" kind:"pageSize" doc:"points per page (1-1000, default 100)"`
	Cursor     *uint32 `query:"cursor" kind:"familyCursor" doc:"where the page starts: the cursor of the previous page"`
}

// familySeriesJSON is a page of one family's points, newest first.
type familySeriesJSON struct {
	Family   string            `json:"family"`
	Coverage string            `json:"coverage"`
	Points   []familyPointJSON `json:"points"`
	Cursor   string            `json:"cursor,omitempty"` // only when more points may exist
}

// seriesQuery is a checked request of a family series: inclusive index bounds, the
// page size and where the page starts (the cursor; end when none).
type seriesQuery struct {
	start, end, top uint32
	size            int
}

func readSeriesQuery(p *familySeriesParams) (seriesQuery, error) {
	q := seriesQuery{end: ^uint32(0), size: rest.DefaultPageSize}
	if p.StartIndex != nil {
		q.start = *p.StartIndex
	}
	if p.EndIndex != nil {
		q.end = *p.EndIndex
	}
	if p.PageSize != nil {
		q.size = *p.PageSize
	}
	if q.end < q.start {
		return q, rest.BadParam("endIndex", "%d is before startIndex (%d)", q.end, q.start)
	}
	q.top = q.end
	if p.Cursor != nil {
		q.top = *p.Cursor
		if q.top < q.start || q.top > q.end {
			return q, rest.BadParam("cursor", "%d lies outside startIndex..endIndex: a cursor of another query", q.top)
		}
	}
	return q, nil
}

// familySeries serves GET /api/analytics/v2/{family} for spec.
func (s *API) familySeries(spec FamilySpec) func(context.Context, *rest.Input, *familySeriesParams) (any, error) {
	return func(ctx context.Context, _ *rest.Input, p *familySeriesParams) (any, error) {
		q, err := readSeriesQuery(p)
		if err != nil {
			return nil, err
		}
		state, folded, err := s.st.LedgerFamilies(ctx)
		if err != nil {
			return nil, err
		}
		out := familySeriesJSON{Family: spec.Name, Coverage: familyCoverage(spec, state, folded),
			Points: []familyPointJSON{}}
		newest, ok, err := s.familiesNewest(ctx, state, folded)
		if err != nil || !ok || q.start > min(newest, q.top) {
			return out, err
		}
		rows, err := s.st.FamilyRange(ctx, spec.Name, q.start, min(newest, q.top), q.size+1)
		if err != nil {
			return nil, err
		}
		if len(rows) > q.size {
			out.Cursor = strconv.FormatUint(uint64(rows[q.size].Index), 10)
			rows = rows[:q.size]
		}
		for _, r := range rows {
			p, err := pointJSON(r)
			if err != nil {
				return nil, err
			}
			out.Points = append(out.Points, p)
		}
		return out, nil
	}
}

// familiesNewest is the newest milestone that may have family rows: the newest synced
// one (the ingest writes the activity families before its sync row) or the ledger
// fold's watermark, whichever is newer; ok is false when there is neither.
func (s *API) familiesNewest(ctx context.Context, state store.LedgerFamiliesState, folded bool) (uint32, bool, error) {
	span, err := s.st.SyncTip(ctx)
	switch {
	case errors.Is(err, store.ErrNothingSynced):
		return state.Watermark, folded, nil
	case err != nil:
		return 0, false, err
	case folded:
		return max(span.Newest, state.Watermark), true, nil
	}
	return span.Newest, true, nil
}

// familyCoverage is spec's coverage: the activity families and the protocol parameters
// are complete for every milestone that has a row; the ledger families only when the
// fold started from the whole ledger (a snapshot bootstrap).
func familyCoverage(spec FamilySpec, state store.LedgerFamiliesState, folded bool) string {
	if !spec.Ledger || folded && state.Complete {
		return rest.CoverageComplete
	}
	return rest.CoveragePartial
}

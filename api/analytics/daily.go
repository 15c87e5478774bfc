package analytics

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Daily active addresses: Chronicle's active_addresses per UTC date.
const (
	DailyFamily      = analytics.FamilyActiveAddresses
	DefaultDailyDays = 30 // dates answered when from is not given
)

// FamilyDailyParams are the query of GET /api/analytics/v2/active_addresses/daily (the
// numbers in the docs are defaultDailyDays-1 and maxAnalyticsDays, as a test checks).
type FamilyDailyParams struct {
	From *time.Time `query:"from" kind:"date" doc:"first date (UTC, YYYY-MM-DD; default 29 days before to)"`
	To   *time.Time `query:"to" kind:"date" doc:"last date (inclusive; default today, UTC; at most 3660 days from from)"`
}

// familyDailyJSON are a family's figures of the computed dates, newest first.
type familyDailyJSON struct {
	Family string            `json:"family"`
	Points []dailyFamilyJSON `json:"points"`
}

type dailyFamilyJSON struct {
	Date    string      `json:"date"`
	Figures rest.Object `json:"figures"`
}

// activeAddressesDaily serves the daily active addresses of [from, to]; dates the daily
// job has not computed (yet) are left out.
func (s *API) activeAddressesDaily(ctx context.Context, _ *rest.Input, p *FamilyDailyParams) (any, error) {
	from, to, err := dailyBounds(p, time.Now())
	if err != nil {
		return nil, err
	}
	rows, err := s.st.DailyFamilyRange(ctx, DailyFamily, from, to)
	if err != nil {
		return nil, err
	}
	out := familyDailyJSON{Family: DailyFamily, Points: make([]dailyFamilyJSON, 0, len(rows))}
	for _, r := range rows {
		figures, err := nestFigures(r.Figures)
		if err != nil {
			return nil, err
		}
		out.Points = append(out.Points, dailyFamilyJSON{Date: r.Date.Format(rest.DateLayout), Figures: figures})
	}
	return out, nil
}

// dailyBounds are the request's dates, defaulted from now: to is today (UTC), from the
// date defaultDailyDays-1 before to.
func dailyBounds(p *FamilyDailyParams, now time.Time) (time.Time, time.Time, error) {
	to := now.UTC().Truncate(24 * time.Hour)
	if p.To != nil {
		to = *p.To
	}
	from := to.AddDate(0, 0, 1-DefaultDailyDays)
	if p.From != nil {
		from = *p.From
	}
	if from.After(to) { // both given: parseInput names from already
		return from, to, rest.BadParam("from", "%s is after to (%s, today when not given)", from.Format(rest.DateLayout),
			to.Format(rest.DateLayout))
	}
	return from, to, rest.CheckDays(from, to)
}

package api

import (
	"context"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
)

// Daily active addresses: Chronicle's active_addresses per UTC date.
const (
	dailyFamily      = analytics.FamilyActiveAddresses
	defaultDailyDays = 30 // dates answered when from is not given
)

// familyDailyParams are the query of GET /api/analytics/v2/active_addresses/daily.
var familyDailyParams = []param{
	{name: "from", kind: dateKind, doc: "first date (UTC, YYYY-MM-DD; default " +
		strconv.Itoa(defaultDailyDays-1) + " days before to)"},
	{name: "to", kind: dateKind, doc: "last date (inclusive; default today, UTC; at most " +
		strconv.Itoa(maxAnalyticsDays) + " days from from)"},
}

// familyDailyJSON are a family's figures of the computed dates, newest first.
type familyDailyJSON struct {
	Family string            `json:"family"`
	Points []dailyFamilyJSON `json:"points"`
}

type dailyFamilyJSON struct {
	Date    string `json:"date"`
	Figures object `json:"figures"`
}

// activeAddressesDaily serves the daily active addresses of [from, to]; dates the daily
// job has not computed (yet) are left out.
func (s *Server) activeAddressesDaily(ctx context.Context, in *input) (any, error) {
	from, to, err := dailyBounds(in, time.Now())
	if err != nil {
		return nil, err
	}
	rows, err := s.st.DailyFamilyRange(ctx, dailyFamily, from, to)
	if err != nil {
		return nil, err
	}
	out := familyDailyJSON{Family: dailyFamily, Points: make([]dailyFamilyJSON, 0, len(rows))}
	for _, r := range rows {
		figures, err := nestFigures(r.Figures)
		if err != nil {
			return nil, err
		}
		out.Points = append(out.Points, dailyFamilyJSON{Date: r.Date.Format(dateLayout), Figures: figures})
	}
	return out, nil
}

// dailyBounds are the request's dates, defaulted from now: to is today (UTC), from the
// date defaultDailyDays-1 before to.
func dailyBounds(in *input, now time.Time) (time.Time, time.Time, error) {
	to := now.UTC().Truncate(24 * time.Hour)
	if in.has("to") {
		to = in.time("to")
	}
	from := to.AddDate(0, 0, 1-defaultDailyDays)
	if in.has("from") {
		from = in.time("from")
	}
	if from.After(to) { // both given: parseInput names from already
		return from, to, badParam("from", "%s is after to (%s, today when not given)", from.Format(dateLayout),
			to.Format(dateLayout))
	}
	return from, to, checkDays(from, to)
}

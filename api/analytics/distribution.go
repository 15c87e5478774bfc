package analytics

import (
	"context"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// The token distribution over time: for each UTC date the daily job computed, the
// address_balance family (token_distribution.<N>.address_count and .total_amount, the
// addresses with a balance) of the date's last milestone, as the ledger fold wrote it.

// distributionReads bounds the dates one request reads at once (two point reads each).
const distributionReads = 8

// DistributionParams are the query of GET /api/analytics/v2/token-distribution.
type DistributionParams struct {
	FamilyDailyParams
	Daily *bool `query:"granularity" kind:"dayGranularity" doc:"day (the only one): each date's closing distribution; per milestone, GET /api/analytics/v2/address_balance"`
}

var dayGranularityKind = rest.TypedKind(map[string]any{"type": "string", "enum": []string{"day"}, "default": "day"},
	func(name, v string) (bool, error) {
		if v != "day" {
			return false, rest.BadParam(name, "want day (per milestone: /api/analytics/v2/address_balance), got %s",
				rest.Quote(v))
		}
		return true, nil
	})

var _ = rest.NamedKinds(map[string]rest.Kind{"dayGranularity": dayGranularityKind})

// distributionJSON is the token distribution of the computed dates, newest first.
type distributionJSON struct {
	Family   string                  `json:"family"`
	Coverage string                  `json:"coverage"`
	Points   []distributionPointJSON `json:"points"`
}

type distributionPointJSON struct {
	Date string `json:"date"`
	familyPointJSON
}

// tokenDistribution serves the closing token distribution of each date of [from, to]
// the daily job computed and the ledger fold reached; other dates are left out.
func (s *API) tokenDistribution(ctx context.Context, _ *rest.Input, p *DistributionParams) (any, error) {
	from, to, err := dailyBounds(&p.FamilyDailyParams, time.Now())
	if err != nil {
		return nil, err
	}
	state, folded, err := s.st.LedgerFamilies(ctx)
	if err != nil {
		return nil, err
	}
	spec := Families[slices.IndexFunc(Families, func(f FamilySpec) bool { return f.Name == analytics.FamilyAddressBalance })]
	var days []time.Time
	for d := to; !d.Before(from); d = d.AddDate(0, 0, -1) {
		days = append(days, d)
	}
	points := make([]*distributionPointJSON, len(days))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(distributionReads)
	for i, d := range days {
		g.Go(func() (err error) { points[i], err = s.closingDistribution(gctx, d); return err })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := distributionJSON{Family: spec.Name, Coverage: familyCoverage(spec, state, folded),
		Points: []distributionPointJSON{}}
	for _, pt := range slices.DeleteFunc(points, func(p *distributionPointJSON) bool { return p == nil }) {
		out.Points = append(out.Points, *pt)
	}
	return out, nil
}

// closingDistribution is the address_balance family of day's last milestone; nil when
// the daily job did not compute the day or the fold has not reached that milestone.
func (s *API) closingDistribution(ctx context.Context, day time.Time) (*distributionPointJSON, error) {
	ms, ok, err := s.st.DateMilestones(ctx, day)
	if err != nil || !ok {
		return nil, err
	}
	row, ok, err := s.st.MilestoneFamily(ctx, analytics.FamilyAddressBalance, ms.To)
	if err != nil || !ok {
		return nil, err
	}
	pt, err := pointJSON(row)
	return &distributionPointJSON{Date: day.Format(rest.DateLayout), familyPointJSON: pt}, err
}

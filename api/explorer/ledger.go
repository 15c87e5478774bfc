package explorer

import (
	"context"
	"errors"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Richest addresses and token distribution: what the analytics worker stored for a
// ledger index (analytics.ComputeLedger); a ledger index it did not compute is computed
// on request (figuresAt: one scan at a time, bounded, kept). Without ledgerIndex the
// newest computed one is answered.

// defaultTop is Chronicle's default richest-list length.
const defaultTop = 100

// ledgerIndexParams pick the ledger index of the analytics.
type ledgerIndexParams struct {
	LedgerIndex *uint32 `query:"ledgerIndex" kind:"index" doc:"the ledger index (default: the newest the analytics worker computed); one it did not compute is computed on request (computedOnRequest), up to 5000000 ledger rows (else 422); above the ledger index, 400"`
}

// richestParams: how many of the richest, at which ledger index.
type richestParams struct {
	Top *int `query:"top" kind:"top" doc:"how many (from 1, default 100; above 1000 the list holds 1000, as maxResults says)"`
	ledgerIndexParams
}

var (
	// topKind clamps as Chronicle does: a top above the stored list's length answers
	// the whole list, and maxResults says so.
	topKind = clampedKind(analytics.LedgerTop, defaultTop)
)

// ledgerStatsMeta is what the answers of both routes say about their ledger index.
type ledgerStatsMeta struct {
	LedgerIndex uint32 `json:"ledgerIndex"`
	// Of the newest computed ledger index only (not of an older one asked for):
	MilestoneTimestamp int64  `json:"milestoneTimestamp,omitempty"` // the ledger index's, TIP-18's time
	NewestAtEnd        uint32 `json:"newestAtEnd,omitempty"`        // newest synced milestone when the scan ended
	ComputedAt         string `json:"computedAt,omitempty"`
	// OnRequest: the worker did not compute this ledger index; this request's scan did.
	OnRequest bool `json:"computedOnRequest,omitempty"`
}

type RichestJSON struct {
	Top        []richAddressJSON `json:"top"`
	MaxResults int               `json:"maxResults"` // the top in effect
	ledgerStatsMeta
	rest.WithCoverage
}

type richAddressJSON struct {
	Address string `json:"address"`
	Balance string `json:"balance"`
}

type DistributionJSON struct {
	Distribution []DistributionStatJSON `json:"distribution"`
	ledgerStatsMeta
	rest.WithCoverage
}

// DistributionStatJSON is Chronicle's DistributionStatDto: the addresses with a balance
// in [range.start, range.end), 10^m to 10^(m+1).
type DistributionStatJSON struct {
	Range        balanceRangeJSON `json:"range"`
	AddressCount string           `json:"addressCount"`
	TotalBalance string           `json:"totalBalance"`
}

type balanceRangeJSON struct {
	Start uint64 `json:"start"`
	End   uint64 `json:"end"`
}

// ledgerStats resolves the ledger index of a request: the one asked for, or the newest
// computed (404 before the first computation); and the coverage of the analytics at it
// (coverageAt), read at the same time.
func (s *API) ledgerStats(ctx context.Context, p *ledgerIndexParams) (ledgerStatsMeta, rest.WithCoverage, error) {
	var (
		latest          store.LedgerSummary
		cov             rest.CoverageJSON
		latestErr, gErr error
	)
	var g errgroup.Group
	g.Go(func() error { latest, latestErr = s.st.LatestLedgerAnalytics(ctx); return nil })
	g.Go(func() (err error) { cov, err = s.Coverage(ctx); return err })
	gErr = g.Wait()
	switch {
	case gErr != nil:
		return ledgerStatsMeta{}, rest.WithCoverage{}, gErr
	case errors.Is(latestErr, store.ErrNotFound) && p.LedgerIndex == nil:
		return ledgerStatsMeta{}, rest.WithCoverage{}, rest.NotFound("the ledger analytics were not computed yet: the " +
			"analytics worker computes them once a day (indexer run), or on demand (indexer analytics -ledger); " +
			"with ledgerIndex they are computed on request")
	case latestErr != nil && !errors.Is(latestErr, store.ErrNotFound):
		return ledgerStatsMeta{}, rest.WithCoverage{}, latestErr
	}
	meta := ledgerStatsMeta{LedgerIndex: latest.LedgerIndex, MilestoneTimestamp: latest.Timestamp,
		NewestAtEnd: latest.NewestAtEnd, ComputedAt: latest.ComputedAt.Format(time.RFC3339)}
	if p.LedgerIndex != nil && (latestErr != nil || *p.LedgerIndex != latest.LedgerIndex) {
		meta = ledgerStatsMeta{LedgerIndex: *p.LedgerIndex}
	}
	return meta, rest.WithCoverage{Coverage: rest.CoverageAt(cov, meta.LedgerIndex)}, nil
}

// onRequest computes the figures at meta's ledger index when the worker did not
// (figuresAt): ledgerStats leaves computedAt empty only for an index asked for. The
// answer then says so, with the index's time, and is partial when the spent twin may
// lack spends.
func (s *API) onRequest(ctx context.Context, meta *ledgerStatsMeta, cov *rest.WithCoverage) (analytics.LedgerFigures, error) {
	v, err := s.figuresAt(ctx, meta.LedgerIndex)
	if err != nil {
		return analytics.LedgerFigures{}, err
	}
	meta.MilestoneTimestamp, meta.OnRequest = v.timestamp, true
	if v.spentMissing {
		cov.Coverage.Partial(store.SpentMissingReason(cov.Coverage.Since))
	}
	return v.figures, nil
}

// storedOrOnRequest reads the figures the daily job stored for the ledger index, or,
// where it computed none there, computes them on request (onRequest) and picks them.
func storedOrOnRequest[R any](ctx context.Context, s *API, meta *ledgerStatsMeta, cov *rest.WithCoverage,
	stored func() ([]R, error), pick func(*analytics.LedgerFigures) []R) ([]R, error) {
	rows, err := stored()
	if err != nil || len(rows) > 0 || meta.ComputedAt != "" {
		return rows, err
	}
	fig, err := s.onRequest(ctx, meta, cov)
	if err != nil {
		return nil, err
	}
	return pick(&fig), nil
}

func (s *API) richestAddresses(ctx context.Context, _ *rest.Input, p *richestParams) (any, error) {
	meta, cov, err := s.ledgerStats(ctx, &p.ledgerIndexParams)
	if err != nil {
		return nil, err
	}
	top := defaultTop
	if p.Top != nil {
		top = *p.Top
	}
	rows, err := storedOrOnRequest(ctx, s, &meta, &cov,
		func() ([]store.RichAddress, error) { return s.st.RichestAddresses(ctx, meta.LedgerIndex, top) },
		func(fig *analytics.LedgerFigures) []store.RichAddress {
			return fig.Richest[:min(top, len(fig.Richest))]
		})
	if err != nil {
		return nil, err
	}
	out := RichestJSON{Top: make([]richAddressJSON, 0, len(rows)), MaxResults: top, ledgerStatsMeta: meta,
		WithCoverage: cov}
	for _, r := range rows {
		out.Top = append(out.Top, richAddressJSON{Address: r.Address, Balance: strconv.FormatInt(r.Balance, 10)})
	}
	return out, nil
}

func (s *API) tokenDistribution(ctx context.Context, _ *rest.Input, p *ledgerIndexParams) (any, error) {
	meta, cov, err := s.ledgerStats(ctx, p)
	if err != nil {
		return nil, err
	}
	rows, err := storedOrOnRequest(ctx, s, &meta, &cov,
		func() ([]store.DistributionBucket, error) { return s.st.TokenDistribution(ctx, meta.LedgerIndex) },
		func(fig *analytics.LedgerFigures) []store.DistributionBucket { return fig.Distribution })
	if err != nil {
		return nil, err
	}
	out := DistributionJSON{Distribution: make([]DistributionStatJSON, 0, len(rows)), ledgerStatsMeta: meta,
		WithCoverage: cov}
	for _, r := range rows {
		out.Distribution = append(out.Distribution, DistributionStatJSON{
			Range:        balanceRangeJSON{Start: pow10(r.Magnitude), End: pow10(r.Magnitude + 1)},
			AddressCount: strconv.FormatInt(r.AddressCount, 10), TotalBalance: strconv.FormatInt(r.TotalBalance, 10)})
	}
	return out, nil
}

// pow10 is 10^m (m <= 19: balances are int64, so magnitudes stop at 18).
func pow10(m int32) uint64 {
	v := uint64(1)
	for range m {
		v *= 10
	}
	return v
}

package tables

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// MilestoneSpanParams are [start, end] of the milestone analytics routes (the bound in
// the doc is maxAnalyticsMilestones, as a test checks).
type MilestoneSpanParams struct {
	Start uint32 `query:"start" kind:"index" required:"true" doc:"first milestone index"`
	End   uint32 `query:"end" kind:"index" required:"true" doc:"last milestone index (inclusive; at most 10000 milestones from start)"`
}

// addressSpanParams: an address's rows of [start, end].
type addressSpanParams struct {
	rest.AddressParams
	MilestoneSpanParams
}

// DateRangeParams are [from, to] of GET /analytics/daily (the bound in the doc is
// maxAnalyticsDays, as a test checks).
type DateRangeParams struct {
	From time.Time `query:"from" kind:"date" required:"true" doc:"first date (UTC, YYYY-MM-DD)"`
	To   time.Time `query:"to" kind:"date" required:"true" doc:"last date (inclusive; at most 3660 days from from)"`
}

type MilestoneStatJSON struct {
	MilestoneIndex    uint32 `json:"milestoneIndex"`
	MessageCount      int    `json:"messageCount"`
	TransactionCount  int    `json:"transactionCount"`
	TransferredTokens string `json:"transferredTokens"`
}

type DailyStatJSON struct {
	Date           string `json:"date"`
	TotalAddresses int    `json:"totalAddresses"`
	SendAddresses  int    `json:"sendAddresses"`
	RecvAddresses  int    `json:"recvAddresses"`
}

type AddressStatJSON struct {
	MilestoneIndex uint32 `json:"milestoneIndex"`
	SentTokens     string `json:"sentTokens"`
	RecvTokens     string `json:"recvTokens"`
}

func amount(v uint64) string { return strconv.FormatUint(v, 10) }

// milestoneSpan checks the inclusive [start, end] of a request and returns it as the
// readers' half-open [start, end), empty when start == end. Milestone indexes are
// stored as int: nothing lies past math.MaxInt32, so the span is cut there.
func milestoneSpan(p *MilestoneSpanParams, limit int) (uint32, uint32, error) {
	start, end := p.Start, p.End
	switch width := uint64(end) - uint64(start) + 1; {
	case end < start:
		return 0, 0, rest.BadParam("end", "%d is before start (%d)", end, start)
	case width > uint64(limit):
		return 0, 0, rest.BadParam("end", "range of %d milestones is wider than %d", width, limit)
	}
	stop := uint32(min(uint64(end)+1, math.MaxInt32+1))
	return min(start, stop), stop, nil
}

// analyticsMilestones is GET /analytics/milestones: the per-milestone rows of
// [start, end], newest first; milestones without a row (not indexed, or indexed before
// analytics were on) are left out.
func (s *API) analyticsMilestones(ctx context.Context, _ *rest.Input, p *MilestoneSpanParams) (any, error) {
	start, end, err := milestoneSpan(p, rest.MaxAnalyticsMilestones)
	if err != nil || start == end {
		return rest.Page[MilestoneStatJSON]{Items: []MilestoneStatJSON{}}, err
	}
	rows, err := analytics.MilestoneStats(ctx, s.st, start, end)
	if err != nil {
		return nil, err
	}
	return rest.WholePage(rows, func(r store.MilestoneStat) MilestoneStatJSON {
		return MilestoneStatJSON{MilestoneIndex: r.MilestoneIndex, MessageCount: r.MessageCount,
			TransactionCount: r.TransactionCount, TransferredTokens: amount(r.TransferredTokens)}
	}), nil
}

// analyticsAddress is GET /analytics/addresses/{address}: the address's rows of
// [start, end] (milestones where it sent or received), newest first.
func (s *API) analyticsAddress(ctx context.Context, _ *rest.Input, p *addressSpanParams) (any, error) {
	start, end, err := milestoneSpan(&p.MilestoneSpanParams, rest.MaxAnalyticsMilestones)
	if err != nil || start == end {
		return rest.Page[AddressStatJSON]{Items: []AddressStatJSON{}}, err
	}
	rows, err := analytics.AddressStats(ctx, s.st, p.Address, start, end)
	if err != nil {
		return nil, err
	}
	return rest.WholePage(rows, func(r store.AddressStat) AddressStatJSON {
		return AddressStatJSON{MilestoneIndex: r.MilestoneIndex, SentTokens: amount(r.SentTokens),
			RecvTokens: amount(r.RecvTokens)}
	}), nil
}

// analyticsDaily is GET /analytics/daily: the computed dates of [from, to], newest
// first; dates the daily job has not computed (yet) are left out.
func (s *API) analyticsDaily(ctx context.Context, _ *rest.Input, p *DateRangeParams) (any, error) {
	from, to := p.From, p.To // from <= to: checked with the parameters
	if err := rest.CheckDays(from, to); err != nil {
		return nil, err
	}
	rows, err := analytics.DailyStats(ctx, s.st, from, to)
	if err != nil {
		return nil, err
	}
	return rest.WholePage(rows, func(r store.DailyStat) DailyStatJSON {
		return DailyStatJSON{Date: r.Date, TotalAddresses: r.TotalAddresses, SendAddresses: r.SendAddresses,
			RecvAddresses: r.RecvAddresses}
	}), nil
}

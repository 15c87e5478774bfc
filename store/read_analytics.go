package store

import (
	"context"
	"errors"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// DateLayout is how a date column's value is written as text: YYYY-MM-DD (UTC).
const DateLayout = "2006-01-02"

// MilestoneStat is one ms_analytics row.
type MilestoneStat struct {
	MilestoneIndex    uint32 `json:"milestone_index" cql:"milestone_index"`
	MessageCount      int    `json:"message_count" cql:"message_count"`
	TransactionCount  int    `json:"transaction_count" cql:"transaction_count"`
	TransferredTokens uint64 `json:"transferred_tokens" cql:"transferred_tokens"`
}

// DailyStat is one daily_analytics row.
type DailyStat struct {
	Date           string `json:"date" cql:"date"` // YYYY-MM-DD, UTC
	TotalAddresses int    `json:"total_addresses" cql:"total_addresses"`
	SendAddresses  int    `json:"send_addresses" cql:"send_addresses"`
	RecvAddresses  int    `json:"recv_addresses" cql:"recv_addresses"`
}

// AddressStat is one address_analytics row.
type AddressStat struct {
	MilestoneIndex uint32 `json:"milestone_index" cql:"milestone_index"`
	SentTokens     uint64 `json:"sent_tokens" cql:"sent_tokens"`
	RecvTokens     uint64 `json:"recv_tokens" cql:"recv_tokens"`
}

// DateMilestones reads the first and last milestone of a UTC date the daily job
// computed; ok is false for a date it did not.
func (st *Store) DateMilestones(ctx context.Context, day time.Time) (ms Range, ok bool, err error) {
	var from, to int32
	err = st.s.Scan(ctx, cql.DateCache, []any{day}, &from, &to)
	if errors.Is(err, gocql.ErrNotFound) {
		return Range{}, false, nil
	}
	return Range{From: uint32(from), To: uint32(to)}, err == nil, err
}

// MilestoneStats reads the milestones in [start, end) (start < end), newest first, one
// ms_range_id partition at a time.
func (st *Store) MilestoneStats(ctx context.Context, start, end uint32) ([]MilestoneStat, error) {
	chunk := uint64(st.ChunkSize)
	args := func(r int) []any {
		lo, hi := max(uint64(start), uint64(r)*chunk), min(uint64(end), uint64(r+1)*chunk)
		return []any{int32(r), clampInt32(lo), clampInt32(hi)}
	}
	return collectDown[MilestoneStat](ctx, st.s, cql.MsAnalyticsRange, int(st.RangeID(end-1)), int(st.RangeID(start)), args)
}

// collectDown reads a select once per partition, from partition hi down to lo (newest
// first), args giving each one's bind values, and returns the rows in that order.
func collectDown[T any](ctx context.Context, s *cql.Session, stmt *cql.Statement, hi, lo int, args func(int) []any) ([]T, error) {
	var out []T
	for p := hi; p >= lo; p-- {
		rows, err := cql.Records[T](ctx, s, stmt, args(p))
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// AddressStats reads an address's rows in [start, end), newest first; address is the
// text the keyspace stores (bech32 under the network's HRP).
func (st *Store) AddressStats(ctx context.Context, address string, start, end uint32) ([]AddressStat, error) {
	args := []any{address, clampInt32(uint64(start)), clampInt32(uint64(end))}
	return cql.Records[AddressStat](ctx, st.s, cql.AddressAnalyticsRange, args)
}

// DailyStats reads the computed dates in [from, to] (UTC midnights), newest first, one
// year partition at a time.
func (st *Store) DailyStats(ctx context.Context, from, to time.Time) ([]DailyStat, error) {
	args := func(year int) []any { return []any{int32(year), from, to} }
	return collectDown[DailyStat](ctx, st.s, cql.DailyAnalyticsRange, to.Year(), from.Year(), args)
}

// MetricCount is the size of one of a date's metrics_cache sets (variant, metric).
func (st *Store) MetricCount(ctx context.Context, day time.Time, variant, metric string) (int64, error) {
	var n int64
	err := st.s.Scan(ctx, cql.CountMetric, []any{day, variant, metric}, &n)
	return n, err
}

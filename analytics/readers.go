package analytics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Bounds of one reader call, so that a request reads a bounded number of rows.
const (
	MaxMilestoneRange = 10000    // milestones per MilestoneStats / AddressStats call
	MaxDateRange      = 366 * 10 // days per DailyStats call
)

// ErrBadRange: an empty, reversed or too large range (the API answers 400).
var ErrBadRange = errors.New("bad range")

// MilestoneStat is one ms_analytics row.
type MilestoneStat struct {
	MilestoneIndex    uint32 `json:"milestone_index"`
	MessageCount      int    `json:"message_count"`
	TransactionCount  int    `json:"transaction_count"`
	TransferredTokens uint64 `json:"transferred_tokens"`
}

// DailyStat is one daily_analytics row.
type DailyStat struct {
	Date           string `json:"date"` // YYYY-MM-DD, UTC
	TotalAddresses int    `json:"total_addresses"`
	SendAddresses  int    `json:"send_addresses"`
	RecvAddresses  int    `json:"recv_addresses"`
}

// AddressStat is one address_analytics row.
type AddressStat struct {
	MilestoneIndex uint32 `json:"milestone_index"`
	SentTokens     uint64 `json:"sent_tokens"`
	RecvTokens     uint64 `json:"recv_tokens"`
}

// MilestoneStats reads the milestones in [start, end), newest first, one ms_range_id
// partition at a time.
func MilestoneStats(ctx context.Context, st *store.Store, start, end uint32) ([]MilestoneStat, error) {
	if err := checkMilestoneRange(start, end); err != nil {
		return nil, err
	}
	var out []MilestoneStat
	chunk := uint64(st.ChunkSize)
	for r := st.RangeID(end - 1); r >= st.RangeID(start); r-- {
		lo, hi := max(uint64(start), uint64(r)*chunk), min(uint64(end), uint64(r+1)*chunk)
		rows, err := cql.Collect(ctx, st.S, cql.MsAnalyticsRange, []any{r, clampInt32(lo), clampInt32(hi)},
			func(it *gocql.Iter, row *MilestoneStat) bool {
				var idx, msgs, txs int32
				var tokens int64
				ok := it.Scan(&idx, &msgs, &txs, &tokens)
				*row = MilestoneStat{uint32(idx), int(msgs), int(txs), uint64(max(tokens, 0))}
				return ok
			})
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// AddressStats reads an address's rows in [start, end), newest first. The address may be
// given in Bech32 (any HRP) or 0x-hex form.
func AddressStats(ctx context.Context, st *store.Store, address string, start, end uint32) ([]AddressStat, error) {
	if err := checkMilestoneRange(start, end); err != nil {
		return nil, err
	}
	a, err := chain.ParseAddress(address)
	if err != nil {
		return nil, err
	}
	text, ok, err := st.AddressText(ctx, a)
	if !ok || err != nil {
		return nil, err // no network recorded: nothing is indexed
	}
	args := []any{text, clampInt32(uint64(start)), clampInt32(uint64(end))}
	return cql.Collect(ctx, st.S, cql.AddressAnalyticsRange, args,
		func(it *gocql.Iter, row *AddressStat) bool {
			var idx int32
			var sent, recv int64
			ok := it.Scan(&idx, &sent, &recv)
			*row = AddressStat{uint32(idx), uint64(max(sent, 0)), uint64(max(recv, 0))}
			return ok
		})
}

// DailyStats reads the computed dates in [from, to] (UTC dates), newest first, one year
// partition at a time.
func DailyStats(ctx context.Context, st *store.Store, from, to time.Time) ([]DailyStat, error) {
	from, to = Day(from), Day(to)
	if to.Before(from) || to.Sub(from) >= MaxDateRange*24*time.Hour {
		return nil, fmt.Errorf("%w: dates %s..%s (at most %d days)", ErrBadRange,
			from.Format(DateLayout), to.Format(DateLayout), MaxDateRange)
	}
	return readDaily(ctx, st, from, to)
}

func readDaily(ctx context.Context, st *store.Store, from, to time.Time) ([]DailyStat, error) {
	var out []DailyStat
	for year := to.Year(); year >= from.Year(); year-- {
		rows, err := cql.Collect(ctx, st.S, cql.DailyAnalyticsRange, []any{int32(year), from, to},
			func(it *gocql.Iter, row *DailyStat) bool {
				var date time.Time
				var total, sent, recv int32
				ok := it.Scan(&date, &total, &sent, &recv)
				*row = DailyStat{date.UTC().Format(DateLayout), int(total), int(sent), int(recv)}
				return ok
			})
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

func checkMilestoneRange(start, end uint32) error {
	if end <= start || end-start > MaxMilestoneRange {
		return fmt.Errorf("%w: milestones [%d, %d) (at most %d)", ErrBadRange, start, end, MaxMilestoneRange)
	}
	return nil
}

package analytics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Bounds of one reader call, so that a request reads a bounded number of rows.
const (
	MaxMilestoneRange = 10000    // milestones per MilestoneStats / AddressStats call
	MaxDateRange      = 366 * 10 // days per DailyStats call
)

// ErrBadRange: an empty, reversed or too large range (the API answers 400).
var ErrBadRange = errors.New("bad range")

// StatsReader is the store's side of the readers below: the per-milestone, per-address
// and per-day rows of the analytics tables, and an address's text under the network's HRP.
type StatsReader interface {
	MilestoneStats(ctx context.Context, start, end uint32) ([]store.MilestoneStat, error)
	AddressStats(ctx context.Context, address string, start, end uint32) ([]store.AddressStat, error)
	DailyStats(ctx context.Context, from, to time.Time) ([]store.DailyStat, error)
}

var _ StatsReader = (*store.Store)(nil)

// MilestoneStats reads the milestones in [start, end), newest first, at most
// MaxMilestoneRange of them.
func MilestoneStats(ctx context.Context, st StatsReader, start, end uint32) ([]store.MilestoneStat, error) {
	if err := checkMilestoneRange(start, end); err != nil {
		return nil, err
	}
	return st.MilestoneStats(ctx, start, end)
}

// AddressStats reads an address's rows in [start, end), newest first, by the text the
// keyspace stores it under.
func AddressStats(ctx context.Context, st StatsReader, address chain.LocalAddress, start, end uint32) ([]store.AddressStat, error) {
	if err := checkMilestoneRange(start, end); err != nil {
		return nil, err
	}
	return st.AddressStats(ctx, address.Text, start, end)
}

// DailyStats reads the computed dates in [from, to] (UTC dates), newest first, one year
// partition at a time.
func DailyStats(ctx context.Context, st StatsReader, from, to time.Time) ([]store.DailyStat, error) {
	from, to = Day(from), Day(to)
	if to.Before(from) || to.Sub(from) >= MaxDateRange*24*time.Hour {
		return nil, fmt.Errorf("%w: dates %s..%s (at most %d days)", ErrBadRange,
			from.Format(store.DateLayout), to.Format(store.DateLayout), MaxDateRange)
	}
	return st.DailyStats(ctx, from, to)
}

func checkMilestoneRange(start, end uint32) error {
	if end <= start || end-start > MaxMilestoneRange {
		return fmt.Errorf("%w: milestones [%d, %d) (at most %d)", ErrBadRange, start, end, MaxMilestoneRange)
	}
	return nil
}

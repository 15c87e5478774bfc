package rest

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
)

// Bounds of the analytics routes: the readers' own, so one request reads at most that
// many rows (10000 milestones: at most two ms_range_id partitions at the default chunk
// size, or one slice of an address's partition; 3660 days: 11 year partitions).
const (
	MaxAnalyticsMilestones = analytics.MaxMilestoneRange
	MaxAnalyticsDays       = analytics.MaxDateRange
)

// CheckDays refuses a date range [from, to] of more than maxAnalyticsDays dates.
func CheckDays(from, to time.Time) error {
	if days := int(to.Sub(from)/(24*time.Hour)) + 1; days > MaxAnalyticsDays {
		return BadParam("to", "range of %d days is wider than %d", days, MaxAnalyticsDays)
	}
	return nil
}

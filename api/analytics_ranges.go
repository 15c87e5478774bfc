package api

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
)

// Bounds of the analytics routes: the readers' own, so one request reads at most that
// many rows (10000 milestones: at most two ms_range_id partitions at the default chunk
// size, or one slice of an address's partition; 3660 days: 11 year partitions).
const (
	maxAnalyticsMilestones = analytics.MaxMilestoneRange
	maxAnalyticsDays       = analytics.MaxDateRange
)

// checkDays refuses a date range [from, to] of more than maxAnalyticsDays dates.
func checkDays(from, to time.Time) error {
	if days := int(to.Sub(from)/(24*time.Hour)) + 1; days > maxAnalyticsDays {
		return badParam("to", "range of %d days is wider than %d", days, maxAnalyticsDays)
	}
	return nil
}

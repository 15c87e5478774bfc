package analytics

import (
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Day is the UTC date of t, as midnight UTC.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ParseDay parses a YYYY-MM-DD date.
func ParseDay(s string) (time.Time, error) {
	t, err := time.Parse(store.DateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: want YYYY-MM-DD", s)
	}
	return t, nil
}

// nextDay is the date after day.
func nextDay(day time.Time) time.Time { return day.AddDate(0, 0, 1) }

// LeaseName is the lease a node holds while it runs day's job.
func LeaseName(day time.Time) string { return "analytics/daily/" + Day(day).Format(store.DateLayout) }

// nextDailyRun is the first wall-clock instant after now that is `at` past a UTC midnight.
func nextDailyRun(now time.Time, at time.Duration) time.Time {
	next := Day(now).Add(at)
	for !next.After(now) {
		next = next.Add(24 * time.Hour)
	}
	return next
}

package store

import (
	"time"
)

// TimeRange bounds ms_timestamp to [From, To). The zero value is no bound.
type TimeRange struct {
	From, To time.Time
}

// IsZero reports whether r bounds nothing.
func (r TimeRange) IsZero() bool { return r.From.IsZero() && r.To.IsZero() }

// bounds returns the [from, to) values to bind, open ends widened to the whole column.
func (r TimeRange) bounds() (time.Time, time.Time) {
	from, to := r.From, r.To
	if from.IsZero() {
		from = time.UnixMilli(0)
	}
	if to.IsZero() {
		to = maxTimestamp
	}
	return from, to
}

// maxTimestamp is past any ms_timestamp the indexer writes (year 9999).
var maxTimestamp = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// PageRequest is where one page of one partition starts (nil State: at its beginning)
// and how many rows it may hold.
type PageRequest struct {
	Size  int
	State []byte
}

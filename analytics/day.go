package analytics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// DayResult is one computed date.
type DayResult struct {
	Date           string        `json:"date"`
	StartMs        uint32        `json:"start_ms"`
	EndMs          uint32        `json:"end_ms"`
	Milestones     int           `json:"milestones"`
	TotalAddresses int           `json:"total_addresses"`
	SendAddresses  int           `json:"send_addresses"`
	RecvAddresses  int           `json:"recv_addresses"`
	Took           time.Duration `json:"-"`
}

// IncompleteError says why a date was not computed.
type IncompleteError struct {
	Date   string
	Reason string
}

func (e *IncompleteError) Error() string { return e.Date + " is not complete: " + e.Reason }

// RunDay is the daily job for one UTC date of the chain: it finds the date's first and
// last milestone (date_cache) and counts its metrics_cache address sets (daily_analytics
// and Chronicle's daily active_addresses in daily_families, see countAddresses).
// A date is computed only when complete, that is when a synced milestone after its end
// exists and its milestones, and the one before it, are synced with no gap; otherwise
// RunDay writes nothing and returns an *IncompleteError. Only the oldest synced
// milestone may start a date without its predecessor: the index starts there. The same
// date always gives the same rows.
func RunDay(ctx context.Context, st *store.Store, day time.Time) (DayResult, error) {
	start := time.Now()
	day = Day(day)
	ms, err := findDay(ctx, st, day)
	if err != nil {
		return DayResult{}, err
	}
	if err := st.WriteDateCache(ctx, day, ms); err != nil {
		return DayResult{}, err
	}
	res := DayResult{Date: day.Format(store.DateLayout), StartMs: ms.From, EndMs: ms.To, Milestones: ms.Len()}
	if err := countAddresses(ctx, st, day, &res); err != nil {
		return DayResult{}, err
	}
	if err := st.WriteDailyStat(ctx, day, res.TotalAddresses, res.SendAddresses, res.RecvAddresses); err != nil {
		return DayResult{}, err
	}
	err = st.WriteDailyFamily(ctx, day, FamilyActiveAddresses, map[string]int64{"count": int64(res.TotalAddresses)})
	res.Took = time.Since(start)
	return res, err
}

// findDay returns the date's milestone range if the date is complete.
func findDay(ctx context.Context, st *store.Store, day time.Time) (store.Range, error) {
	incomplete := func(format string, args ...any) error {
		return &IncompleteError{Date: day.Format(store.DateLayout), Reason: fmt.Sprintf(format, args...)}
	}
	span, err := loadSpan(ctx, st)
	if errors.Is(err, store.ErrNothingSynced) {
		return store.Range{}, incomplete("%v", err)
	}
	if err != nil {
		return store.Range{}, err
	}
	first, err := span.firstAtOrAfter(ctx, day)
	if err != nil {
		return store.Range{}, err
	}
	next, err := span.firstAtOrAfter(ctx, nextDay(day))
	switch {
	case err != nil:
		return store.Range{}, err
	case first == next:
		return store.Range{}, incomplete("no synced milestone falls on it (synced: %d..%d)", span.Oldest, span.Newest)
	case next > span.Newest:
		return store.Range{}, incomplete("the newest synced milestone, %d, is not past its end", span.Newest)
	}
	// With no gap from first's predecessor to next, next-1 is the date's last milestone
	// and no milestone of the date can be missing at either end.
	from := first
	if first > span.Oldest {
		from = first - 1
	}
	synced, err := st.Synced(ctx, from, next)
	if err != nil {
		return store.Range{}, err
	}
	if gaps := store.Gaps(synced, from, next); len(gaps) > 0 {
		return store.Range{}, incomplete("milestones %s are not synced", rangesText(gaps))
	}
	return store.Range{From: first, To: next - 1}, nil
}

// countAddresses sizes the date's address sets (metrics_cache.count).
//
// Chronicle's daily ActiveAddresses counts the distinct owners (no expiration judged) of
// the outputs booked or spent on the date; those are the owners of the date's
// milestones' created and consumed outputs, each of which holds tokens: the
// "sent_or_received" set, whose size is both TotalAddresses and the daily family's count.
func countAddresses(ctx context.Context, st *store.Store, day time.Time, res *DayResult) error {
	for metric, dest := range map[string]*int{
		"sent_or_received": &res.TotalAddresses, "sent": &res.SendAddresses, "received": &res.RecvAddresses,
	} {
		n, err := st.MetricCount(ctx, day, "address", metric)
		if err != nil {
			return fmt.Errorf("counting %s addresses of %s: %w", metric, day.Format(store.DateLayout), err)
		}
		*dest = int(n)
	}
	return nil
}

func rangesText(rs []store.Range) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d..%d", r.From, r.To)
	}
	return b.String()
}

package analytics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// DefaultLeaseTTL outlives a daily job by far (it takes well under a second per day of a
// busy chain); if the holder dies, the date is free again after it.
const DefaultLeaseTTL = 10 * time.Minute

var (
	// ErrLeaseHeld: another node holds the date's lease, so it runs (or just ran) the job.
	ErrLeaseHeld = errors.New("another node holds the lease")
	// ErrDone: the date already has its daily_analytics row.
	ErrDone = errors.New("already computed")
)

// Job runs daily jobs under the date's lease, so that one node at a time runs a date.
type Job struct {
	Store    *store.Store
	Owner    string        // this node, as the lease records it
	LeaseTTL time.Duration // default DefaultLeaseTTL
}

// Run runs RunDay for day while holding its lease. With skipDone, a date that already
// has its daily_analytics row is skipped (ErrDone); the check is made under the lease,
// so a node that lost the race to a node that has since finished does not redo it.
func (j Job) Run(ctx context.Context, day time.Time, skipDone bool) (DayResult, error) {
	lease := store.Lease{Name: LeaseName(day), Owner: j.Owner, TTL: orDefault(j.LeaseTTL, DefaultLeaseTTL)}
	held, err := j.Store.AcquireLease(ctx, lease)
	if err != nil {
		return DayResult{}, err
	}
	if !held {
		holder, _ := j.Store.LeaseHolder(ctx, lease.Name) // only to name it in the error
		return DayResult{}, fmt.Errorf("%w (%s)", ErrLeaseHeld, holder)
	}
	defer j.release(ctx, lease)
	if skipDone {
		done, err := computed(ctx, j.Store, Day(day))
		if err != nil {
			return DayResult{}, err
		}
		if done {
			return DayResult{}, ErrDone
		}
	}
	return RunDay(ctx, j.Store, day)
}

// release gives the lease back even when ctx has ended meanwhile; if that fails too,
// the lease's TTL frees it.
func (j Job) release(ctx context.Context, lease store.Lease) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = j.Store.ReleaseLease(ctx, lease)
}

// computed reports whether day has its daily_analytics row.
func computed(ctx context.Context, st *store.Store, day time.Time) (bool, error) {
	rows, err := st.DailyStats(ctx, day, day)
	return len(rows) > 0, err
}

func orDefault[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

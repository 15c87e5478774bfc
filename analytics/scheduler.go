package analytics

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// SchedulerConfig tunes a Scheduler; zero fields take the defaults noted.
type SchedulerConfig struct {
	Owner      string        // this node in lease rows; must differ between nodes
	DailyAt    time.Duration // wall-clock time after UTC midnight of the daily run; 0: 15m, midnight is 24h
	CheckEvery time.Duration // how often to look whether the chain entered a new UTC date; default 1m
	LeaseTTL   time.Duration // default DefaultLeaseTTL
	Log        *slog.Logger
	// OnJob, if set, is called after each job this scheduler ran (metrics, tests).
	OnJob func(DayResult)
	// SkipLedger: do not run the ledger analytics (richest addresses, token
	// distribution; ledger_schedule.go) from the passes.
	SkipLedger     bool
	LedgerLeaseTTL time.Duration // default DefaultLedgerLeaseTTL
	// OnError, if set, is called with each failure of a job ("daily", "ledger"): the
	// failures counter.
	OnError func(job string, err error)
	// Retry spaces the passes tried again after a pass that failed.
	Retry Backoff
}

// Scheduler runs the daily job for every complete date of the chain, once across all
// nodes that run one: at start (catching up every complete date without a
// daily_analytics row), every day at DailyAt (wall clock), and whenever the newest
// synced milestone enters a new UTC date. Each of these runs one catch-up pass, which
// covers the previous date and any date that became complete since (a filled gap). When
// a pass had to skip the previous date (its last milestones were still being written),
// every check retries that date alone until it is computed.
type Scheduler struct {
	st     *store.Store
	cfg    SchedulerConfig
	job    Job
	jobs   atomic.Int64
	passes atomic.Int64
	// Owned by Run's goroutine: the newest synced date the last full pass saw, and
	// whether that pass left the date before it uncomputed.
	seen          time.Time
	yesterdayOpen bool
	failed        bool // the last try (a pass, or the previous date's retry) had a job fail
	tries         int  // passes and retries of the previous date run
}

// NewScheduler prepares a scheduler; Run starts it.
func NewScheduler(st *store.Store, cfg SchedulerConfig) *Scheduler {
	cfg.DailyAt = orDefault(cfg.DailyAt, 15*time.Minute)
	cfg.CheckEvery = orDefault(cfg.CheckEvery, time.Minute)
	cfg.Log = orDefault(cfg.Log, slog.Default())
	return &Scheduler{st: st, cfg: cfg, job: Job{Store: st, Owner: cfg.Owner, LeaseTTL: cfg.LeaseTTL}}
}

// JobsRun is how many daily jobs this scheduler ran (dates it computed).
func (s *Scheduler) JobsRun() int64 { return s.jobs.Load() }

// Passes is how many catch-up passes finished, successfully or not.
func (s *Scheduler) Passes() int64 { return s.passes.Load() }

// Run schedules until ctx ends. A job that fails is logged and counted (OnError), and
// its pass is tried again after a backoff (Retry) as well as at the next trigger:
// analytics must never stop the indexer.
func (s *Scheduler) Run(ctx context.Context) error {
	s.pass(ctx)
	daily := time.NewTimer(time.Until(nextDailyRun(time.Now(), s.cfg.DailyAt)))
	defer daily.Stop()
	check := time.NewTicker(s.cfg.CheckEvery)
	defer check.Stop()
	retry := time.NewTimer(0)
	defer retry.Stop()
	s.armRetry(retry)
	for {
		tried := s.tries
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-daily.C:
			s.pass(ctx)
			daily.Reset(time.Until(nextDailyRun(time.Now(), s.cfg.DailyAt)))
		case <-check.C:
			s.check(ctx)
		case <-retry.C:
			s.pass(ctx)
		}
		if s.tries != tried {
			s.armRetry(retry)
		}
	}
}

// armRetry sets the retry timer after a try that failed (the backoff's next wait), and
// stops it after one that did not.
func (s *Scheduler) armRetry(retry *time.Timer) {
	retry.Stop()
	if s.failed {
		retry.Reset(s.cfg.Retry.Failed())
		return
	}
	s.cfg.Retry.Succeeded()
}

// check runs a pass when the chain entered a new date, or retries the previous date
// when the last pass could not compute it yet.
func (s *Scheduler) check(ctx context.Context) {
	newest, err := newestDate(ctx, s.st)
	switch {
	case err != nil:
		s.cfg.Log.Debug("daily analytics: reading the newest synced date", "error", err)
	case newest.After(s.seen):
		s.pass(ctx)
	case s.yesterdayOpen:
		yesterday := s.seen.AddDate(0, 0, -1)
		settled, err := s.runDay(ctx, yesterday)
		s.yesterdayOpen = !settled
		s.failed = s.logFailure(ctx, "daily", err)
		s.tries++
	}
}

func (s *Scheduler) pass(ctx context.Context) {
	daily := s.logFailure(ctx, "daily", s.catchUp(ctx))
	ledger := s.ledgerPass(ctx)
	s.failed = daily || ledger
	s.tries++
	s.passes.Add(1)
}

// logFailure logs and counts a failure of job; it says whether there was one.
func (s *Scheduler) logFailure(ctx context.Context, job string, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	s.cfg.Log.Warn("analytics job failed; it is tried again", "job", job, "error", err, "failures_in_a_row",
		s.cfg.Retry.Failures()+1)
	if s.cfg.OnError != nil {
		s.cfg.OnError(job, err)
	}
	return true
}

// catchUp runs the job of every complete date without a daily_analytics row, oldest
// first, from the oldest synced milestone's date to the date before the newest's.
func (s *Scheduler) catchUp(ctx context.Context) error {
	days, newest, err := pendingDays(ctx, s.st)
	if err != nil {
		return err
	}
	yesterday, open := newest.AddDate(0, 0, -1), false
	for _, day := range days {
		settled, err := s.runDay(ctx, day)
		if err != nil {
			return err
		}
		if day.Equal(yesterday) {
			open = !settled
		}
	}
	s.seen, s.yesterdayOpen = newest, open
	return nil
}

// runDay runs one date's job if it still needs running. settled is false only when the
// date was not complete: it is computed (here, or already, or by the node holding its
// lease) in every other case.
func (s *Scheduler) runDay(ctx context.Context, day time.Time) (settled bool, err error) {
	res, err := s.job.Run(ctx, day, true)
	var incomplete *IncompleteError
	switch {
	case err == nil:
		s.jobs.Add(1)
		s.cfg.Log.Info("daily analytics", "date", res.Date, "milestones", res.Milestones, "addresses", res.TotalAddresses,
			"senders", res.SendAddresses, "receivers", res.RecvAddresses, "took", res.Took)
		if s.cfg.OnJob != nil {
			s.cfg.OnJob(res)
		}
	case errors.Is(err, ErrLeaseHeld), errors.Is(err, ErrDone):
		s.cfg.Log.Debug("daily analytics: left to another node", "date", day.Format(store.DateLayout), "why", err)
	case errors.As(err, &incomplete):
		s.cfg.Log.Info("daily analytics skipped", "date", incomplete.Date, "reason", incomplete.Reason)
		return false, nil
	default:
		return false, err
	}
	return true, nil
}

// pendingDays lists the dates a pass should try: from the oldest synced milestone's date
// up to the day before the newest's (that one cannot be complete yet), minus the dates
// already computed.
func pendingDays(ctx context.Context, st *store.Store) (days []time.Time, newest time.Time, err error) {
	first, newest, err := syncedDates(ctx, st)
	if errors.Is(err, store.ErrNothingSynced) {
		return nil, time.Time{}, nil
	}
	if err != nil || !first.Before(newest) {
		return nil, newest, err
	}
	last := newest.AddDate(0, 0, -1)
	done, err := st.DailyStats(ctx, first, last)
	if err != nil {
		return nil, newest, err
	}
	computed := map[string]bool{}
	for _, d := range done {
		computed[d.Date] = true
	}
	for day := first; !day.After(last); day = nextDay(day) {
		if !computed[day.Format(store.DateLayout)] {
			days = append(days, day)
		}
	}
	return days, newest, nil
}

// syncedDates are the dates of the oldest and newest synced milestones.
func syncedDates(ctx context.Context, st *store.Store) (oldest, newest time.Time, err error) {
	span, err := loadSpan(ctx, st)
	if err != nil {
		return oldest, newest, err
	}
	if oldest, err = span.dateOf(ctx, span.Oldest); err != nil {
		return oldest, newest, err
	}
	newest, err = span.dateOf(ctx, span.Newest)
	return oldest, newest, err
}

// newestDate is the date of the newest synced milestone.
func newestDate(ctx context.Context, st *store.Store) (time.Time, error) {
	span, err := loadSpan(ctx, st)
	if err != nil {
		return time.Time{}, err
	}
	return span.dateOf(ctx, span.Newest)
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// analyticsFlags are `indexer run`'s analytics settings.
type analyticsFlags struct {
	enabled    bool
	dailyAt    time.Duration
	checkEvery time.Duration
	leaseTTL   time.Duration
	ledger     bool
	foldEvery  time.Duration
	retryMin   time.Duration // the first wait before a failed job is tried again
}

func (a *analyticsFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&a.enabled, "analytics", true, "write per-milestone analytics rows and schedule the daily job")
	a.dailyAt = 15 * time.Minute
	fs.Func("analytics-daily-at", "wall-clock UTC time of the daily job, HH:MM (default 00:15)", func(s string) error {
		t, err := time.Parse("15:04", s)
		a.dailyAt = time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute
		if a.dailyAt == 0 {
			a.dailyAt = 24 * time.Hour // midnight: zero would mean the scheduler's default
		}
		return err
	})
	fs.DurationVar(&a.checkEvery, "analytics-check-every", time.Minute,
		"how often to check whether the chain entered a new UTC date")
	fs.DurationVar(&a.leaseTTL, "analytics-lease-ttl", analytics.DefaultLeaseTTL, "lease of a running daily job")
	fs.BoolVar(&a.ledger, "analytics-ledger", true,
		"with -analytics: compute the ledger analytics (richest addresses, token distribution) once a day "+
			"and fold the ledger families")
	fs.DurationVar(&a.foldEvery, "analytics-fold-every", 5*time.Second,
		"with -analytics: how often to fold newly synced milestones into the ledger families")
	fs.DurationVar(&a.retryMin, "analytics-retry", analytics.DefaultRetryMin,
		"with -analytics: the first wait before a failed analytics job is tried again (doubling while it fails, "+
			"up to "+analytics.DefaultRetryMax.String()+")")
}

// attachAnalytics adds the per-milestone analytics rows to every milestone the pipeline
// writes and starts the daily scheduler and, unless -analytics-ledger=false, the ledger
// families' fold. It returns their stop, which cancels and waits for them: deferred in
// cmdRun, it runs before the session closes, so a job cut short still releases its lease
// instead of holding the date for the lease's TTL. Calling it again does nothing. Their
// failures are counted in errs.
func attachAnalytics(ctx context.Context, p *ingest.Pipeline, st *store.Store, f analyticsFlags, errs analyticsErrors) (stop func()) {
	if !f.enabled {
		return func() {}
	}
	p.AddRows(analytics.Rows)
	s := analytics.NewScheduler(st, analytics.SchedulerConfig{Owner: processOwner("run"), DailyAt: f.dailyAt,
		CheckEvery: f.checkEvery, LeaseTTL: f.leaseTTL, Log: slog.Default(), SkipLedger: !f.ledger,
		OnError: errs.add, Retry: analytics.Backoff{Min: f.retryMin}})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 2)
	go func() {
		defer func() { done <- struct{}{} }()
		if err := s.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			slog.Error("analytics scheduler stopped", "error", err)
		}
	}()
	go func() {
		defer func() { done <- struct{}{} }()
		if f.ledger {
			foldSchedule(st, f, errs).Loop(ctx)
		}
	}()
	return sync.OnceFunc(func() {
		cancel()
		<-done
		<-done
	})
}

// processOwner names this process in lease rows: unique per host and process.
func processOwner(role string) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%s/%d", role, host, os.Getpid())
}

// cmdAnalytics computes the daily analytics of every date in [-from, -to], again if
// already computed, under each date's lease; given milestone indexes, it recomputes
// those milestones' analytics rows and refolds the ledger families from -from (see
// cmdRecompute). With -ledger, the ledger analytics at the newest synced milestone
// instead, under their lease, and a recount of the ledger families that must equal the
// fold's figures (see checkFold).
func cmdAnalytics(ctx context.Context, args []string) error {
	var db dbFlags
	var fromText, toText string
	var ledger bool
	var batch uint
	err := parseFlags("analytics", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.StringVar(&fromText, "from", "", "first UTC date, YYYY-MM-DD, or first milestone index (required without -ledger)")
		fs.StringVar(&toText, "to", "", "last UTC date, YYYY-MM-DD, or last milestone index (default: -from)")
		fs.BoolVar(&ledger, "ledger", false,
			"compute the ledger analytics (richest addresses, token distribution) at the newest synced milestone now, "+
				"fold the ledger families up to it and check them against a recount")
		fs.UintVar(&batch, "fold-batch", analytics.FoldBatch, fmt.Sprintf("milestones the ledger families' fold "+
			"folds per run, 1..%d: each run holds the fold's lease, which another node's fold then waits for", analytics.FoldBatch))
	})
	if err != nil {
		return err
	}
	if batch < 1 || batch > analytics.FoldBatch {
		return fmt.Errorf("-fold-batch %d: want 1..%d", batch, analytics.FoldBatch)
	}
	cliFold := func(st *store.Store) analytics.LedgerFold {
		return analytics.LedgerFold{Store: st, Owner: processOwner("cli"), Batch: uint32(batch)}
	}
	if ledger {
		return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
			if err := runLedger(ctx, analytics.LedgerJob{Store: st, Owner: processOwner("cli")}); err != nil {
				return err
			}
			if err := foldToNewest(ctx, cliFold(st)); err != nil {
				return err
			}
			return checkFold(ctx, st)
		})
	}
	if first, last, ok, err := milestoneRange(fromText, toText); ok || err != nil {
		if err != nil {
			return err
		}
		return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
			return cmdRecompute(ctx, cliFold(st), first, last)
		})
	}
	from, to, err := dateRange(fromText, toText)
	if err != nil {
		return err
	}
	return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
		return runDates(ctx, analytics.Job{Store: st, Owner: processOwner("cli")}, from, to)
	})
}

func dateRange(fromText, toText string) (from, to time.Time, err error) {
	if fromText == "" {
		return from, to, errors.New("-from is required")
	}
	if toText == "" {
		toText = fromText
	}
	if from, err = analytics.ParseDay(fromText); err != nil {
		return from, to, err
	}
	if to, err = analytics.ParseDay(toText); err == nil && to.Before(from) {
		err = fmt.Errorf("-to %s is before -from %s", toText, fromText)
	}
	return from, to, err
}

// runDates prints one line per date and a summary; it stops at the first error that is
// not an incomplete date or a lease held elsewhere.
func runDates(ctx context.Context, job analytics.Job, from, to time.Time) error {
	start := time.Now()
	var computed, skipped int
	for day := from; !day.After(to); day = day.AddDate(0, 0, 1) {
		res, err := job.Run(ctx, day, false)
		var incomplete *analytics.IncompleteError
		switch {
		case err == nil:
			computed++
			fmt.Printf("%s  milestones %d..%d (%d)  addresses %d  senders %d  receivers %d  %v\n", res.Date,
				res.StartMs, res.EndMs, res.Milestones, res.TotalAddresses, res.SendAddresses, res.RecvAddresses,
				res.Took.Round(time.Millisecond))
		case errors.As(err, &incomplete):
			skipped++
			fmt.Printf("%s  skipped: %s\n", incomplete.Date, incomplete.Reason)
		case errors.Is(err, analytics.ErrLeaseHeld):
			skipped++
			fmt.Printf("%s  skipped: %v\n", day.Format(store.DateLayout), err)
		default:
			return fmt.Errorf("%s: %w", day.Format(store.DateLayout), err)
		}
	}
	fmt.Printf("%d dates computed, %d skipped, in %v\n", computed, skipped, time.Since(start).Round(time.Millisecond))
	return nil
}

// runLedger runs the ledger analytics once and prints what they computed.
func runLedger(ctx context.Context, job analytics.LedgerJob) error {
	sum, err := job.Run(ctx)
	if err != nil {
		return fmt.Errorf("ledger analytics: %w", err)
	}
	fmt.Printf("ledger index %d (milestone time %s)  addresses %d  outputs %d  newest synced at the end %d  %s\n",
		sum.LedgerIndex, time.Unix(sum.Timestamp, 0).UTC().Format(time.RFC3339), sum.Addresses, sum.Outputs,
		sum.NewestAtEnd, sum.Took)
	return nil
}

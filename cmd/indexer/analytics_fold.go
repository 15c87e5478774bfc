package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// foldLoop folds newly synced milestones into the ledger families every interval until
// ctx ends. Another node folding, nothing synced yet or no network recorded yet is not
// a failure. A failure is logged and counted, and the fold is tried again after the
// backoff's wait (the interval at least): ingest goes on whatever the fold does.
func foldLoop(ctx context.Context, fold analytics.LedgerFold, every time.Duration, retry analytics.Backoff,
	errs analyticsErrors) {
	retry.Min = max(every, retry.Min)
	for {
		wait := every
		res, err := fold.Run(ctx)
		switch {
		case err == nil && res.To >= res.From:
			logFolded(res)
			retry.Succeeded()
		case err == nil, foldNotDue(err):
			retry.Succeeded()
		case ctx.Err() == nil:
			wait = retry.Failed()
			errs.add("fold", err)
			slog.Error("ledger families' fold failed; it is tried again", "error", err, "retry_in", wait,
				"failures_in_a_row", retry.Failures())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// foldNotDue says a fold run did nothing for a reason that is no failure: another node
// folds, nothing is synced yet, or no protocol parameters are recorded yet.
func foldNotDue(err error) bool {
	return errors.Is(err, analytics.ErrLeaseHeld) || errors.Is(err, store.ErrNothingSynced) ||
		errors.Is(err, analytics.ErrNoProtocol)
}

// logFolded logs what one fold run did: at debug level, unless it had to write delta rows
// that ingest did not (milestones indexed before the families, or without analytics).
func logFolded(res analytics.FoldResult) {
	if res.Recomputed == 0 {
		slog.Debug("ledger families folded", "from", res.From, "to", res.To)
		return
	}
	slog.Info("ledger families folded; milestones without ledger delta rows had their analytics rows written again",
		"from", res.From, "to", res.To, "recomputed", res.Recomputed)
}

// foldRest folds batch after batch until the fold reaches the first milestone not synced,
// and returns the last run (the one that found nothing more to fold).
func foldRest(ctx context.Context, fold analytics.LedgerFold) (analytics.FoldResult, error) {
	for {
		res, err := fold.Run(ctx)
		if err != nil || res.To < res.From {
			return res, err
		}
		logFolded(res)
	}
}

// finalFoldTries bounds the tries of the fold at the end of a run.
const finalFoldTries = 3

// finalFold carries the ledger families to the newest milestone a run that ended by itself
// (-stop-at, -follow=false, an import) wrote, which the fold loop may not have reached yet.
// Another node folding, or nothing to fold yet, is not a failure. A fold that keeps
// failing is logged and counted, and the run still ends well: what it ingested stands,
// and the next run's fold goes on from the watermark.
func finalFold(ctx context.Context, st *store.Store, f analyticsFlags, errs analyticsErrors) {
	if !f.enabled || !f.ledger {
		return
	}
	fold := analytics.LedgerFold{Store: st, Owner: processOwner("run"), LeaseTTL: f.leaseTTL}
	retry := analytics.Backoff{Min: f.retryMin}
	for try := 1; ; try++ {
		res, err := foldRest(ctx, fold)
		switch {
		case err == nil:
			slog.Info("ledger families folded", "watermark", res.State.Watermark, "complete", res.State.Complete)
			return
		case foldNotDue(err):
			slog.Info("ledger families not folded at the end of the run", "reason", err)
			return
		case ctx.Err() != nil:
			return
		}
		errs.add("fold", err)
		if try == finalFoldTries {
			slog.Error("ledger families not folded at the end of the run; the next run's fold goes on from the watermark",
				"error", err, "tries", try)
			return
		}
		wait := retry.Failed()
		slog.Warn("ledger families' fold at the end of the run failed; it is tried again", "error", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// milestoneRange reads -from and -to as milestone indexes; ok is false when -from is
// not a number (a date).
func milestoneRange(fromText, toText string) (from, to uint32, ok bool, err error) {
	if fromText == "" || strings.Contains(fromText, "-") {
		return 0, 0, false, nil
	}
	f, err := strconv.ParseUint(fromText, 10, 32)
	if err != nil {
		return 0, 0, true, fmt.Errorf("-from %q: neither a date nor a milestone index", fromText)
	}
	t := f
	if toText != "" {
		if t, err = strconv.ParseUint(toText, 10, 32); err != nil {
			return 0, 0, true, fmt.Errorf("-to %q: not a milestone index (as -from is)", toText)
		}
	}
	if t < f {
		return 0, 0, true, fmt.Errorf("-to %d is before -from %d", t, f)
	}
	return uint32(f), uint32(t), true, nil
}

// cmdRecompute writes milestones from..to's analytics rows again and refolds the ledger
// families from `from`, from the figures and balances stored at from-1. The refold is
// recorded in the fold's state before the first row is written, so a recompute cut
// short leaves it to the next fold (this command run again, or any indexer run's).
func cmdRecompute(ctx context.Context, fold analytics.LedgerFold, from, to uint32) error {
	start := time.Now()
	err := fold.Recompute(ctx, from, to, func(i uint32) error {
		fmt.Printf("milestone %d  rows written\n", i)
		return nil
	})
	if err != nil {
		return err
	}
	if err := foldToNewest(ctx, fold); err != nil {
		return err
	}
	fmt.Printf("recomputed %d-%d in %v\n", from, to, time.Since(start).Round(time.Millisecond))
	return nil
}

// foldToNewest folds the ledger families up to the newest synced milestone (or the first
// gap), batch after batch, and prints where the fold stands.
func foldToNewest(ctx context.Context, fold analytics.LedgerFold) error {
	res, err := foldRest(ctx, fold)
	if err != nil {
		return fmt.Errorf("folding the ledger families: %w", err)
	}
	fmt.Printf("ledger families folded to %d (base %d, complete %t)\n", res.State.Watermark,
		res.State.Base, res.State.Complete)
	return nil
}

// errFoldDiffers: the recount of the ledger families differs from the fold's figures.
var errFoldDiffers = errors.New("the recount of the ledger families differs from the fold")

// checkFold recounts the ledger families at the fold's watermark and prints whether the
// recount equals the stored fold; on a keyspace without a snapshot bootstrap the fold
// covers only the changes since its base, so a difference is reported, not an error.
func checkFold(ctx context.Context, st *store.Store) error {
	c, err := analytics.CheckFold(ctx, st)
	if err != nil {
		return fmt.Errorf("ledger families' recount: %w", err)
	}
	fmt.Printf("ledger families at %d: recount of %d outputs, %d addresses with a balance\n", c.Index, c.Count.Outputs,
		len(c.Count.Balances))
	switch {
	case len(c.Differ) == 0:
		fmt.Println("recount equals the fold")
		return nil
	case !c.State.Complete:
		fmt.Printf("partial ledger (no snapshot bootstrap): the fold covers milestones after %d; differing: %s\n",
			c.State.Base, strings.Join(c.Differ, ", "))
		return nil
	}
	return fmt.Errorf("%w at %d: %s", errFoldDiffers, c.Index, strings.Join(c.Differ, ", "))
}

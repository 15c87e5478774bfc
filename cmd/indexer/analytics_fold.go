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

// foldSchedule is `indexer run`'s schedule of the ledger families' fold.
func foldSchedule(st *store.Store, f analyticsFlags, errs analyticsErrors) analytics.FoldSchedule {
	return analytics.FoldSchedule{Fold: analytics.LedgerFold{Store: st, Owner: processOwner("run"), LeaseTTL: f.leaseTTL},
		Every: f.foldEvery, Retry: analytics.Backoff{Min: f.retryMin}, Log: slog.Default(), OnError: errs.add}
}

// finalFold carries the ledger families to the newest milestone at the end of a run that
// ended by itself (analytics.FoldSchedule.Finish), when the run folds them.
func finalFold(ctx context.Context, st *store.Store, f analyticsFlags, errs analyticsErrors) {
	if f.enabled && f.ledger {
		foldSchedule(st, f, errs).Finish(ctx)
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
	res, err := fold.Rest(ctx, slog.Default())
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

package analytics

import (
	"context"
	"errors"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// ledgerPass runs the ledger analytics once a (wall-clock, UTC) day, from the daily
// scheduler's passes (at start, at DailyAt, when the chain enters a new date): a pass
// on a date that already has them does nothing but one read. Another node holding the
// lease, or nothing synced yet, is not a failure. It says whether the job failed.
func (s *Scheduler) ledgerPass(ctx context.Context) (failed bool) {
	if s.cfg.SkipLedger {
		return false
	}
	due, err := ledgerDue(ctx, s.st, time.Now())
	if err != nil || !due {
		return s.logFailure(ctx, "ledger", err)
	}
	job := LedgerJob{Store: s.st, Owner: s.cfg.Owner, LeaseTTL: s.cfg.LedgerLeaseTTL}
	sum, err := job.RunDue(ctx, time.Now())
	switch {
	case err == nil:
		s.cfg.Log.Info("ledger analytics", "ledgerIndex", sum.LedgerIndex, "addresses", sum.Addresses,
			"outputs", sum.Outputs, "newestAtEnd", sum.NewestAtEnd, "took", sum.Took)
	case errors.Is(err, ErrLeaseHeld), errors.Is(err, ErrDone), errors.Is(err, store.ErrNothingSynced):
		s.cfg.Log.Debug("ledger analytics: not run", "why", err)
	default:
		return s.logFailure(ctx, "ledger", err)
	}
	return false
}

package analytics

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// FoldSchedule runs the ledger families' fold for a long-lived indexer: every interval
// while it ingests (Loop), and once more at the end of a run that ended by itself
// (Finish). Ingest goes on whatever the fold does: a failure is logged, told to OnError
// and tried again after the backoff's wait.
type FoldSchedule struct {
	Fold    LedgerFold
	Every   time.Duration               // between runs of Loop
	Retry   Backoff                     // the wait after a failure (Every at least, in Loop)
	Log     *slog.Logger                // default slog.Default()
	OnError func(job string, err error) // told of each failure, as job "fold"; nil: not told
}

// finishTries bounds the tries of the fold at the end of a run.
const finishTries = 3

// FoldNotDue says a fold run did nothing for a reason that is no failure: another node
// folds, nothing is synced yet, or no protocol parameters are recorded yet.
func FoldNotDue(err error) bool {
	return errors.Is(err, ErrLeaseHeld) || errors.Is(err, store.ErrNothingSynced) || errors.Is(err, ErrNoProtocol)
}

// Loop folds newly synced milestones every interval until ctx ends.
func (s FoldSchedule) Loop(ctx context.Context) {
	log := s.log()
	s.Retry.Min = max(s.Every, s.Retry.Min)
	for {
		pause := s.Every
		res, err := s.Fold.Run(ctx)
		switch {
		case err == nil && res.To >= res.From:
			logFolded(log, res)
			s.Retry.Succeeded()
		case err == nil, FoldNotDue(err):
			s.Retry.Succeeded()
		case ctx.Err() == nil:
			pause = s.Retry.Failed()
			s.failed(err)
			log.Error("ledger families' fold failed; it is tried again", "error", err, "retry_in", pause,
				"failures_in_a_row", s.Retry.Failures())
		}
		if wait.Sleep(ctx, pause) != nil {
			return
		}
	}
}

// Finish carries the ledger families to the newest milestone a run that ended by itself
// (-stop-at, -follow=false, an import) wrote, which Loop may not have reached yet.
// Another node folding, or nothing to fold yet, is not a failure. A fold that keeps
// failing is logged and told, and the run still ends well: what it ingested stands, and
// the next run's fold goes on from the watermark.
func (s FoldSchedule) Finish(ctx context.Context) {
	log := s.log()
	for try := 1; ; try++ {
		res, err := s.Fold.Rest(ctx, log)
		switch {
		case err == nil:
			log.Info("ledger families folded", "watermark", res.State.Watermark, "complete", res.State.Complete)
			return
		case FoldNotDue(err):
			log.Info("ledger families not folded at the end of the run", "reason", err)
			return
		case ctx.Err() != nil:
			return
		}
		s.failed(err)
		if try == finishTries {
			log.Error("ledger families not folded at the end of the run; the next run's fold goes on from the watermark",
				"error", err, "tries", try)
			return
		}
		pause := s.Retry.Failed()
		log.Warn("ledger families' fold at the end of the run failed; it is tried again", "error", err, "retry_in", pause)
		if wait.Sleep(ctx, pause) != nil {
			return
		}
	}
}

// Rest folds batch after batch until the fold reaches the first milestone not synced,
// and returns the last run (the one that found nothing more to fold).
func (f LedgerFold) Rest(ctx context.Context, log *slog.Logger) (FoldResult, error) {
	for {
		res, err := f.Run(ctx)
		if err != nil || res.To < res.From {
			return res, err
		}
		logFolded(log, res)
	}
}

func (s FoldSchedule) log() *slog.Logger { return orDefault(s.Log, slog.Default()) }

func (s FoldSchedule) failed(err error) {
	if s.OnError != nil {
		s.OnError("fold", err)
	}
}

// logFolded logs what one fold run did: at debug level, unless it had to write delta rows
// that ingest did not (milestones indexed before the families, or without analytics).
func logFolded(log *slog.Logger, res FoldResult) {
	if res.Recomputed == 0 {
		log.Debug("ledger families folded", "from", res.From, "to", res.To)
		return
	}
	log.Info("ledger families folded; milestones without ledger delta rows had their analytics rows written again",
		"from", res.From, "to", res.To, "recomputed", res.Recomputed)
}

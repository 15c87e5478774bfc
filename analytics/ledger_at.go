package analytics

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// ErrLedgerTooLarge: a scan of the ledger at an earlier index read more rows than it
// may.
var ErrLedgerTooLarge = errors.New("the ledger is larger than one request may scan")

// LedgerFigures are the ledger analytics of one ledger index: its richest addresses,
// its token distribution, and what the scan counted.
type LedgerFigures struct {
	Richest      []store.RichAddress
	Distribution []store.DistributionBucket
	Addresses    int // addresses holding a balance
	Outputs      int // outputs held
	RowsRead     int
}

// LedgerAt computes the ledger analytics of the ledger once milestone at.Index was
// applied, with TIP-18's time conditions judged at its time: every output created up to
// it and unspent then, from the unspent set and from the spent twin (spent after it).
// It reads at most maxRows rows (ErrLedgerTooLarge past them), one goroutine per kind
// and side.
func LedgerAt(ctx context.Context, st LedgerScanner, at store.LedgerIndex, maxRows int) (LedgerFigures, error) {
	var (
		sum  = newBalanceSum()
		rows atomic.Int64
	)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	g, gctx := errgroup.WithContext(ctx)
	for _, kind := range ledgerKinds {
		for _, spent := range []bool{false, true} {
			g.Go(func() error {
				part, n := map[string]uint64{}, 0
				err := eachRow(gctx, st, store.LedgerStream{Kind: kind.String(), Spent: spent}, at.Index, func(r *store.UnspentRow) {
					if rows.Add(1) > int64(maxRows) {
						cancel(fmt.Errorf("%w: more than %d rows up to ledger index %d", ErrLedgerTooLarge, maxRows, at.Index))
						return
					}
					if heldAt(r, at.Index) {
						if h := HoldingAt(r, at.Timestamp); h.Owner != "" {
							part[h.Owner] += h.Total
							n++
						}
					}
				})
				sum.add(part, n)
				return err
			})
		}
	}
	if err := g.Wait(); err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, ErrLedgerTooLarge) {
			return LedgerFigures{}, cause
		}
		return LedgerFigures{}, err
	}
	return LedgerFigures{Richest: Richest(sum.balances, LedgerTop), Distribution: Distribution(sum.balances),
		Addresses: len(sum.balances), Outputs: sum.outputs, RowsRead: int(rows.Load())}, nil
}

// heldAt reports whether a row's output was unspent once milestone m was applied: an
// unspent set's row always (it is created by m, eachRow says), a spent twin's row when a
// later milestone spent it.
func heldAt(r *store.UnspentRow, m uint32) bool {
	return r.SpentMilestoneIndex == 0 || uint32(r.SpentMilestoneIndex) > m
}

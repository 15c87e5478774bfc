package verify

import (
	"context"
	"fmt"
	"strings"
)

// Kinds of discrepancy in the ledger families' folded rows.
const (
	// KindFiguresDiffer: a folded milestone's ledger figures are not its predecessor's
	// plus its delta row.
	KindFiguresDiffer = "figures_differ"
	// KindBalanceChain: an address's balance at a folded milestone is not its balance
	// before plus the milestone's change.
	KindBalanceChain = "balance_chain"
)

// FoldSteps checks the ledger families' folded rows one milestone at a time
// (analytics.FoldSteps, given by the caller: verify does not depend on analytics).
type FoldSteps interface {
	// Span is the folded milestones that follow from their predecessor, and the refold
	// the fold's state records (0: none).
	Span() (from, to, refoldFrom uint32)
	// Check names the figures and the addresses' balances of milestone m that do not
	// follow from m-1's rows and m's delta row.
	Check(ctx context.Context, m uint32) (differ, balances []string, err error)
}

// checkFolds checks the folded milestones within [From, To]: the ledger families'
// figures(m) - figures(m-1) = delta(m), and the balance chain of the addresses m changed.
func (v *Verifier) checkFolds(ctx context.Context) error {
	if v.opts.Folds == nil {
		return nil
	}
	steps, ok, err := v.opts.Folds(ctx, v.st)
	if err != nil || !ok {
		return err
	}
	first, last, refold := steps.Span()
	for m := max(first, v.opts.From); m <= min(last, v.opts.To); m++ {
		differ, balances, err := steps.Check(ctx, m)
		if err != nil {
			return fmt.Errorf("ledger families at milestone %d: %w", m, err)
		}
		v.summary.FoldedMilestones++
		pending := ""
		if refold != 0 && m >= refold {
			pending = fmt.Sprintf("; a refold from milestone %d is recorded: the next fold repairs it", refold)
		}
		if len(differ) > 0 {
			v.report(Discrepancy{Kind: KindFiguresDiffer, Table: "milestone_families", Milestone: m,
				Key:    map[string]any{"milestone_index": m},
				Detail: "figures(m) - figures(m-1) differ from the delta row: " + strings.Join(differ, ", ") + pending,
				Repair: refoldRepair(m)})
		}
		for _, a := range balances {
			v.report(Discrepancy{Kind: KindBalanceChain, Table: "address_balances", Milestone: m,
				Key:    map[string]any{"address": a, "milestone_index": m},
				Detail: "the balance at m is not the balance at m-1 plus the delta row's change" + pending,
				Repair: refoldRepair(m)})
		}
	}
	return nil
}

// refoldRepair is what repairs a folded row: a refold from its milestone (verify itself
// rewrites none of them).
func refoldRepair(m uint32) string {
	return fmt.Sprintf("none by verify: `indexer analytics -from %d -to %d` recomputes and refolds from it", m, m)
}

package verify

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// uncheckedSpend handles a spent output whose creation row is gone. When a synced
// milestone included the transaction that created it (its own input or output rows
// say so), that milestone wrote the creation row: its absence is a discrepancy
// (missing_creation), and verify of the creating milestone rewrites it from its message
// bytes. Otherwise the output was created before the first indexed milestone (a genesis
// output, or one whose creation the node could not give) and the spend is only counted.
func (v *Verifier) uncheckedSpend(ctx context.Context, index uint32, in chain.SpentInput) error {
	created, ok, err := v.creatingMilestone(ctx, in.OutputID.TransactionID())
	if err != nil {
		return err
	}
	if ok {
		synced, err := v.st.Synced(ctx, created, created)
		if err != nil {
			return err
		}
		_, ok = synced[created]
	}
	if !ok {
		v.summary.UncheckedSpends++
		return nil
	}
	v.report(Discrepancy{Kind: KindMissingCreation, Table: "transactions", Milestone: index,
		Key: map[string]any{"transaction_id": in.OutputID.TransactionID().String(),
			"idx": in.OutputID.Index(), "variant": store.VariantOutput},
		Detail: fmt.Sprintf("spent by transaction %s in this milestone; synced milestone %d included the transaction "+
			"that created it, but its output row is gone: the spend is unchecked", in.SpentBy, created),
		Repair: fmt.Sprintf("rewrite by verify -repair of milestone %d, from its stored message bytes", created)})
	return nil
}

// creatingMilestone is the milestone that included transaction id, from the transaction's
// own input and output rows (its unlock rows are those of the transactions that spent
// its outputs).
func (v *Verifier) creatingMilestone(ctx context.Context, id chain.TransactionID) (uint32, bool, error) {
	rows, err := v.st.TransactionRows(ctx, id.String())
	if err != nil {
		return 0, false, err
	}
	for _, r := range rows {
		if r.Variant != store.VariantUnlock && r.MilestoneIndex != nil && r.InclusionState != nil &&
			chain.InclusionState(*r.InclusionState) == chain.Included {
			return uint32(*r.MilestoneIndex), true, nil
		}
	}
	return 0, false, nil
}

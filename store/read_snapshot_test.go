package store_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// The reads of a snapshot export on Shimmer milestone 17339 as the indexer writes it:
// every output its ledger updates name (created and consumed: basic, alias, NFT, a
// genesis output) is found by UpdatedRow with its bytes, block, booking and, for a
// consumed one, its spend; BookedRow finds a chain output by its chain ID; a block is
// referenced after 17338 by a child in 17339 but not after 17339; the treasury's
// milestone ID is read from the bootstrap record when it carries one.
func TestSnapshotReads(t *testing.T) {
	ctx := context.Background()
	st, cm, _ := writtenMilestone(t, func(store.Write) bool { return true })
	ups, err := st.MilestoneUpdates(ctx, 17339)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]chain.LedgerSpent{}
	for _, lo := range cm.Created {
		want[lo.OutputID.String()] = chain.LedgerSpent{LedgerOutput: lo}
	}
	for _, ls := range cm.Consumed {
		want[ls.OutputID.String()] = ls
	}
	if len(ups) != len(want) {
		t.Fatalf("%d ledger updates, want %d", len(ups), len(want))
	}
	for _, u := range ups {
		r, err := st.UpdatedRow(ctx, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkRow(t, r, want[u.OutputID], u.IsSpent)
	}
	for _, lo := range cm.Created {
		if lo.Output.Kind == chain.OutputBasic {
			continue
		}
		r, err := st.BookedRow(ctx, lo.Output.Kind, chainKey(lo), lo.OutputID, 17339)
		if err != nil || r.OutputID != lo.OutputID.String() {
			t.Errorf("BookedRow of %s output %s: %+v, %v", lo.Output.Kind, lo.OutputID, r, err)
		}
	}
	last := cm.Messages[len(cm.Messages)-1] // a parent of the milestone (its child is in 17340, not written)
	block := last.Message.Parents[0].String()
	for _, c := range []struct {
		after uint32
		want  bool
	}{{17338, true}, {17339, false}} {
		if got, err := st.ReferencedAfter(ctx, last.ID.String(), c.after); err != nil || got {
			t.Errorf("the last block of 17339 (no children indexed) referenced after %d: %v, %v", c.after, got, err)
		}
		if got, err := st.ReferencedAfter(ctx, block, c.after); err != nil || got != c.want {
			t.Errorf("its parent, referenced after %d: %v, %v; want %v", c.after, got, err, c.want)
		}
	}
}

func checkRow(t *testing.T, r store.OutputRow, want chain.LedgerSpent, spent bool) {
	t.Helper()
	block := ""
	if want.MessageID != (chain.MessageID{}) {
		block = want.MessageID.String()
	}
	if r.OutputID != want.OutputID.String() || !bytes.Equal(r.Data, chain.EncodeOutput(want.Output)) ||
		r.MilestoneIndex != int32(want.MilestoneIndex) || !r.Timestamp.Equal(want.Timestamp) ||
		(r.MessageID != block && r.MessageID != want.MessageID.String()) {
		t.Errorf("output %s (%s): row %+v\nwant %+v", want.OutputID, want.Output.Kind, r, want.LedgerOutput)
	}
	if spent && (r.SpentBy != want.SpentBy.String() || r.SpentMilestoneIndex == nil || *r.SpentMilestoneIndex != 17339) {
		t.Errorf("output %s: spent by %q in %v, want %s in 17339", want.OutputID, r.SpentBy, r.SpentMilestoneIndex, want.SpentBy)
	}
}

// chainKey is a chain output's row key: its chain's ID.
func chainKey(lo chain.LedgerOutput) string {
	switch lo.Output.Kind {
	case chain.OutputAlias:
		return lo.Output.ResolvedAliasID(lo.OutputID).String()
	case chain.OutputNFT:
		return lo.Output.ResolvedNFTID(lo.OutputID).String()
	}
	return lo.Output.FoundryID.String()
}

package store_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realnettest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// Creations written as the indexer writes Shimmer milestone 17339 (its own outputs, and
// the outputs it spends, created before it: basic, alias, NFT and a genesis output) are
// read back whole by output ID; outputs never written are not held.
func TestStoredCreation(t *testing.T) {
	ctx := context.Background()
	st, _ := storetest.NewOrSkip(t, 1000)
	cm, next := writtenMilestone(t, st, func(store.Write) bool { return true })
	held := append([]chain.LedgerOutput{}, cm.Created...)
	for _, ls := range cm.Consumed {
		held = append(held, ls.LedgerOutput)
	}
	kinds, genesis := map[chain.OutputKind]bool{}, false
	for _, want := range held {
		got, ok, err := st.StoredCreation(ctx, want.OutputID)
		if err != nil || !ok || !sameCreation(got, want) {
			t.Fatalf("output %s: held %v, %v:\n got %+v\nwant %+v", want.OutputID, ok, err, got, want)
		}
		kinds[want.Output.Kind] = true
		genesis = genesis || want.MessageID == chain.MessageID{}
	}
	if !kinds[chain.OutputBasic] || !kinds[chain.OutputAlias] || !kinds[chain.OutputNFT] || !genesis {
		t.Fatalf("kinds read %v, a genesis output %v; want basic, alias, NFT and genesis", kinds, genesis)
	}
	for _, lo := range append(next.Created, next.Consumed[0].LedgerOutput) {
		if got, ok, err := st.StoredCreation(ctx, lo.OutputID); ok || err != nil {
			t.Fatalf("output %s, never written: held %v (%+v), %v", lo.OutputID, ok, got, err)
		}
	}
}

// A transactions row whose output-table row is not written yet is an error (the caller
// retries once the milestone's writes are done), not a creation without its time.
func TestStoredCreationUnfinished(t *testing.T) {
	st, _ := storetest.NewOrSkip(t, 1000)
	cm, _ := writtenMilestone(t, st, func(w store.Write) bool { return w.Table() == "transactions" })
	for _, lo := range cm.Created[:3] {
		if _, ok, err := st.StoredCreation(context.Background(), lo.OutputID); ok || !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("output %s (%s): held %v, %v; want ErrNotFound", lo.OutputID, lo.Output.Kind, ok, err)
		}
	}
}

// writtenMilestone reads milestones 17339 and 17340 from the fake node and writes the
// rows of 17339 that keep selects (all of them: as the indexer does, start 17339).
func writtenMilestone(t *testing.T, st *store.Store, keep func(store.Write) bool) (cm, next *chain.ConfirmedMilestone) {
	t.Helper()
	n, _ := nodetest.Start(t)
	src := realnettest.Source(t, node.Config{URL: n.URL()})
	cm = realnettest.WriteMilestone(t, st, src, keep)
	next, err := src.Milestone(context.Background(), 17340)
	if err != nil {
		t.Fatal(err)
	}
	return cm, next
}

func sameCreation(a, b chain.LedgerOutput) bool {
	return a.OutputID == b.OutputID && a.MessageID == b.MessageID && a.MilestoneIndex == b.MilestoneIndex &&
		a.Timestamp.Equal(b.Timestamp) && bytes.Equal(chain.EncodeOutput(a.Output), chain.EncodeOutput(b.Output))
}

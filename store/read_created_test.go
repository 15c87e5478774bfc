package store_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// Creations written as the indexer writes Shimmer milestone 17339 (its own outputs, and
// the outputs it spends, created before it: basic, alias, NFT and a genesis output) are
// read back whole by output ID; outputs never written are not held.
func TestStoredCreation(t *testing.T) {
	ctx := context.Background()
	st, cm, next := writtenMilestone(t, func(store.Write) bool { return true })
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
	st, cm, _ := writtenMilestone(t, func(w store.Write) bool { return w.Table() == "transactions" })
	for _, lo := range cm.Created[:3] {
		if _, ok, err := st.StoredCreation(context.Background(), lo.OutputID); ok || !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("output %s (%s): held %v, %v; want ErrNotFound", lo.OutputID, lo.Output.Kind, ok, err)
		}
	}
}

// writtenMilestone is a store (chunk size 1000) on a fresh keyspace holding the rows of
// milestone 17339 that keep selects, written as the indexer writes them starting at
// 17339, and milestones 17339 and 17340 as the fake node serves them; with -short it
// skips the test.
func writtenMilestone(t *testing.T, keep func(store.Write) bool) (st *store.Store, cm, next *chain.ConfirmedMilestone) {
	t.Helper()
	st, _ = storetest.NewOrSkip(t, 1000)
	n, _ := nodetest.Start(t)
	src := realnettest.Source(t, node.Config{URL: n.URL()})
	cm = realnettest.WriteMilestone(t, st, src, keep)
	vm, err := src.Milestone(context.Background(), 17340)
	if err != nil {
		t.Fatal(err)
	}
	next = vm.Confirmed()
	return st, cm, next
}

func sameCreation(a, b chain.LedgerOutput) bool {
	return a.OutputID == b.OutputID && a.MessageID == b.MessageID && a.MilestoneIndex == b.MilestoneIndex &&
		a.Timestamp.Equal(b.Timestamp) && bytes.Equal(chain.EncodeOutput(a.Output), chain.EncodeOutput(b.Output))
}

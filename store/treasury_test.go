package store

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// writeReceipt writes the receipts row of a milestone carrying a receipt that leaves a
// treasury of amount.
func writeReceipt(t *testing.T, st *Store, index uint32, amount uint64) chain.MilestoneID {
	t.Helper()
	id := chain.MilestoneID{byte(index)}
	rc := &chain.Receipt{MigratedAt: 900, Final: true, Transaction: chain.TreasuryTransaction{OutputAmount: amount},
		Funds: []chain.MigratedFunds{{Address: chain.Address{Kind: chain.AddressEd25519}, Deposit: chain.MinMigratedDeposit}}}
	cm := &chain.ConfirmedMilestone{Index: index, MilestoneID: id, Milestone: &chain.MilestonePayload{Index: index, Receipt: rc}}
	var b builder
	b.receipt(Timestamp(index, PhaseConfirmed), cm)
	if err := st.Apply(context.Background(), b.Writes, 1); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestNewestTreasury: nothing known answers none; receipts alone the newest one's; a
// bootstrap past them its own; a receipt past the bootstrap's ledger index its own.
func TestNewestTreasury(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	want := func(step string, exp Treasury, expOK bool) {
		t.Helper()
		got, ok, err := st.NewestTreasury(ctx)
		if err != nil || ok != expOK || got != exp {
			t.Fatalf("%s: %+v, %v (%v); want %+v, %v", step, got, ok, err, exp, expOK)
		}
	}
	want("empty keyspace", Treasury{}, false)
	id7 := writeReceipt(t, st, 7, 90)
	writeReceipt(t, st, 3, 100) // written later, yet older
	want("receipts 3 and 7", Treasury{MilestoneID: id7, Amount: 90}, true)
	bootID := chain.MilestoneID{0xb0}
	if err := st.RecordLedgerBootstrap(ctx, LedgerBootstrap{Index: 10, Treasury: 500, TreasuryMilestone: bootID.String()}, "t"); err != nil {
		t.Fatal(err)
	}
	want("bootstrap at 10", Treasury{MilestoneID: bootID, Amount: 500}, true)
	id12 := writeReceipt(t, st, 12, 80)
	want("receipt 12 past the bootstrap", Treasury{MilestoneID: id12, Amount: 80}, true)
}

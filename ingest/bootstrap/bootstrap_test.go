package bootstrap

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// TestBootstrapRollsBackAndApplies: a full snapshot whose ledger index (15) is past its
// target (10), with three diffs below the target, and a delta on to 30 (a receipt at 25):
// the keyspace holds exactly the chain's ledger at 30, the record says so, and every
// milestone of the files is stored.
func TestBootstrapRollsBackAndApplies(t *testing.T) {
	st := newStore(t)
	c := testChain()
	full, delta := files(t, c, 10, 15, 3, 30)
	rec, err := bootstrapFiles(t, st, Config{Full: full, Delta: delta, Keys: keysOf(t, c)})
	if err != nil {
		t.Fatal(err)
	}
	assertLedger(t, st, c, 30)
	want := store.LedgerBootstrap{Index: 30, MilestoneID: c.Milestone(30).MilestoneID.String(),
		MilestoneTimestamp: uint32(snapshottest.Timestamp(30).Unix()), Kind: "full+delta", TargetIndex: 10, LedgerIndex: 15,
		Outputs: uint64(len(c.Ledger(30))), Supply: c.Supply(), Treasury: c.Treasury[30].Amount, TreasuryMilestone: c.Treasury[30].MilestoneID.String(), OldestBooked: 0,
		ProtocolVersion: chain.ProtocolVersion, Params: "0x" + hexOf(chain.EncodeProtocolParameters(c.Params()))}
	if rec != want {
		t.Errorf("record %+v\nwant   %+v", rec, want)
	}
	got, ok, err := st.LedgerBootstrap(context.Background())
	if err != nil || !ok || got != want {
		t.Errorf("stored record %+v, %t, %v", got, ok, err)
	}
	for i := uint32(8); i <= 30; i++ {
		m, err := st.Milestone(context.Background(), i)
		if err != nil || m.MilestoneID != c.Milestone(i).MilestoneID.String() {
			t.Errorf("milestone %d: %+v, %v", i, m, err)
		}
	}
	assertUpdates(t, st, c, 8)  // below the target: its lists stored
	assertUpdates(t, st, c, 12) // rolled back, then applied from the delta
	assertUpdates(t, st, c, 25) // applied from the delta, with the receipt's outputs
}

// TestBootstrapFullOnly: without a delta the keyspace holds the ledger at the target.
func TestBootstrapFullOnly(t *testing.T) {
	st := newStore(t)
	c := testChain()
	full, _ := files(t, c, 12, 20, 0, 0)
	rec, err := bootstrapFiles(t, st, Config{Full: full, Keys: keysOf(t, c)})
	if err != nil {
		t.Fatal(err)
	}
	assertLedger(t, st, c, 12)
	if rec.Index != 12 || rec.Kind != "full" || rec.Treasury != c.Treasury[12].Amount {
		t.Errorf("record %+v", rec)
	}
	// The rolled-back milestones lie past the ledger held: indexing writes them.
	if m, err := st.Milestone(context.Background(), 13); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rolled-back milestone 13 stored: %+v, %v", m, err)
	}
}

func assertLedger(t *testing.T, st *store.Store, c *snapshottest.Chain, index uint32) {
	t.Helper()
	got, want := unspentRows(t, st), wantUnspent(c, index)
	if !maps.Equal(got, want) {
		n := 0
		for id, w := range want {
			if g, ok := got[id]; !ok || g != w {
				t.Errorf("output %s: %+v (held %t), want %+v", id, g, ok, w)
				if n++; n > 5 {
					break
				}
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok {
				t.Errorf("output %s is unspent in the keyspace, not at %d", id, index)
			}
		}
		t.Fatalf("%d unspent outputs, want %d", len(got), len(want))
	}
	byAddress := storetest.Rows(t, st, "SELECT output_id FROM unspent_outputs_by_address")
	if len(byAddress) < len(want) {
		t.Errorf("%d unspent_outputs_by_address rows for %d outputs", len(byAddress), len(want))
	}
}

// assertUpdates checks a milestone's utxo-changes lists against the chain's.
func assertUpdates(t *testing.T, st *store.Store, c *snapshottest.Chain, index uint32) {
	t.Helper()
	ups, err := st.MilestoneUpdates(context.Background(), index)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, u := range ups {
		got[u.OutputID] = u.IsSpent
	}
	want := map[string]bool{}
	cm := c.Milestone(index)
	for _, lo := range cm.Created {
		want[lo.OutputID.String()] = false
	}
	for _, ls := range cm.Consumed {
		want[ls.OutputID.String()] = true
	}
	if !maps.Equal(got, want) {
		t.Errorf("milestone %d ledger updates %v, want %v", index, got, want)
	}
}

package sim

import (
	"math/big"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestUTXOInvariants checks the ledger independently of chain.Validate:
// outputs are created once, spent at most once, only after an earlier
// milestone created them, and included transactions conserve amounts.
func TestUTXOInvariants(t *testing.T) {
	s := New(Options{Seed: 3, Tip: 300})
	createdIn := make(map[chain.OutputID]uint32)
	amount := make(map[chain.OutputID]uint64)
	spent := make(map[chain.OutputID]bool)
	for _, cm := range milestones(t, s, 300) {
		for _, lo := range cm.Created {
			if _, dup := createdIn[lo.OutputID]; dup {
				t.Fatalf("milestone %d re-creates %s", cm.Index, lo.OutputID)
			}
			createdIn[lo.OutputID], amount[lo.OutputID] = cm.Index, lo.Output.Amount
		}
		inSum := make(map[chain.TransactionID]uint64)
		for _, ls := range cm.Consumed {
			created, ok := createdIn[ls.OutputID]
			switch {
			case !ok:
				t.Fatalf("milestone %d spends unknown %s", cm.Index, ls.OutputID)
			case created >= cm.Index:
				t.Fatalf("milestone %d spends %s created in %d", cm.Index, ls.OutputID, created)
			case spent[ls.OutputID]:
				t.Fatalf("milestone %d double-spends %s", cm.Index, ls.OutputID)
			case ls.Output.Amount != amount[ls.OutputID]:
				t.Fatalf("consumed %s changed amount", ls.OutputID)
			}
			spent[ls.OutputID] = true
			inSum[ls.SpentBy] += ls.Output.Amount
		}
		checkConservation(t, cm, inSum)
	}
	if len(spent) < len(createdIn)/3 {
		t.Fatalf("only %d of %d outputs spent: the UTXO graph is too thin", len(spent), len(createdIn))
	}
}

func checkConservation(t *testing.T, cm *chain.ConfirmedMilestone, inSum map[chain.TransactionID]uint64) {
	t.Helper()
	for _, m := range cm.Messages {
		tx := m.Message.TransactionOf()
		if tx == nil || m.InclusionState != chain.Included {
			continue
		}
		var out uint64
		for _, o := range tx.Outputs {
			out += o.Amount
		}
		if in := inSum[tx.ID()]; in != out {
			t.Fatalf("milestone %d tx %s: inputs %d != outputs %d", cm.Index, tx.ID(), in, out)
		}
	}
}

// Conflicting transactions are recorded but touch no ledger state.
func TestConflictsLeaveLedgerAlone(t *testing.T) {
	truth, err := New(Options{Seed: 4, Tip: 200, ConflictRate: 0.1, ReattachRate: 0.05}).Truth(200)
	if err != nil {
		t.Fatal(err)
	}
	reasons := make(map[chain.ConflictReason]int)
	for _, m := range truth.Messages {
		tx := m.Message.TransactionOf()
		if m.InclusionState != chain.Conflicting {
			continue
		}
		reasons[m.ConflictReason]++
		tt := truth.Transactions[tx.ID()]
		if m.ConflictReason == chain.ConflictInputAlreadySpent {
			if tt.Milestone == 0 || tt.Milestone >= m.Milestone {
				t.Fatalf("re-attachment %s of a transaction not included earlier", m.ID)
			}
			continue
		}
		if tt.Milestone != 0 {
			t.Fatalf("conflicting transaction %s was also included", tx.ID())
		}
		if _, created := truth.Outputs[chain.NewOutputID(tx.ID(), 0)]; created {
			t.Fatalf("conflicting transaction %s created outputs", tx.ID())
		}
	}
	if reasons[chain.ConflictInputAlreadySpent] == 0 || len(reasons) < 3 {
		t.Fatalf("conflict reasons too uniform: %v", reasons)
	}
}

// Foundries never melt, so every token a foundry minted must still sit on
// unspent outputs: native tokens are conserved across transfers.
func TestNativeTokensConserved(t *testing.T) {
	truth, err := New(Options{Seed: 8, Tip: 300}).Truth(300)
	if err != nil {
		t.Fatal(err)
	}
	minted := make(map[chain.FoundryID]*big.Int)
	held := make(map[chain.FoundryID]*big.Int)
	for _, o := range truth.Outputs {
		if o.Output.Kind == chain.OutputFoundry {
			minted[o.Output.FoundryID] = o.Output.TokenScheme.Minted
		}
		if o.Spent {
			continue
		}
		for _, nt := range o.Output.NativeTokens {
			if held[nt.ID] == nil {
				held[nt.ID] = new(big.Int)
			}
			held[nt.ID].Add(held[nt.ID], nt.Amount)
		}
	}
	if len(minted) == 0 {
		t.Fatal("no foundry minted anything")
	}
	for id, m := range minted {
		if held[id] == nil || held[id].Cmp(m) != 0 {
			t.Fatalf("foundry %s minted %s but unspent outputs hold %v", id, m, held[id])
		}
	}
}

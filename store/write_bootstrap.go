package store

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Rows of a ledger bootstrapped from a snapshot file. Its outputs are written as the
// milestone that booked them would have written them (createdBeforeStart), at that
// milestone's chain-order timestamp: a spend indexed before or after the bootstrap
// deletes them whichever order the writes arrive in.

// SnapshotOutputWrites builds the rows of outputs the ledger holds unspent: their output
// table rows, transactions output rows, the unspent set, by address, and their creation
// in the address ledger updates. The booking milestone's list of ledger updates is left
// out: a snapshot's milestones write their whole lists (SnapshotMilestoneWrites,
// MilestoneWrites), and a genesis milestone that booked millions of outputs would make
// one partition of them all.
func (st *Store) SnapshotOutputWrites(outputs []chain.LedgerOutput) *WriteSet {
	b := st.newBuilder(0)
	b.snapshot = true
	for _, lo := range outputs {
		b.createdBeforeStart(lo)
	}
	return &b.WriteSet
}

// SnapshotMilestoneWrites builds the rows of a verified milestone a snapshot carries
// below the ledger it holds, whose ledger changes the snapshot's unspent set already
// reflects: its milestone rows and the list of outputs it created and consumed
// (milestone_ledger_updates), which TIP-25 utxo-changes answers. Its outputs are not
// written: the unspent set is the snapshot's.
func (st *Store) SnapshotMilestoneWrites(cm *chain.ConfirmedMilestone) *WriteSet {
	b := st.newBuilder(0)
	ts := Timestamp(cm.Index, PhaseConfirmed)
	b.milestone(ts, cm)
	for i := range cm.Created {
		if l, ok := b.newLedgerOutput(&cm.Created[i]); ok {
			b.milestoneUpdate(ts, &l, cm.Index, false)
		}
	}
	for i := range cm.Consumed {
		if l, ok := b.newLedgerOutput(&cm.Consumed[i].LedgerOutput); ok {
			b.milestoneUpdate(Timestamp(cm.Index, PhaseSpent), &l, cm.Index, true)
		}
	}
	return &b.WriteSet
}

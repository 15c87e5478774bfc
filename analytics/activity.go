package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// The activity families: Chronicle's per-milestone analytics that need the milestone
// alone (its cone and its ledger changes), named as Chronicle names its measurements.
const (
	FamilyBlockActivity   = "block_activity"
	FamilyMilestoneSize   = "milestone_size"
	FamilyActiveAddresses = "active_addresses"
	FamilyBaseTokens      = "base_tokens"
	FamilyOutputActivity  = "output_activity"
	FamilyTransactionSize = "transaction_size"
)

// ActivityFamilies computes the milestone's six activity families, every figure present
// (zeros included), with inx-chronicle's definitions: block_activity and milestone_size
// read every block of the cone; the others read the included transactions, each as
// Chronicle's handle_transaction sees it (see txChanges).
func ActivityFamilies(cm *chain.ConfirmedMilestone) []store.FamilyFigures {
	txs := txChanges(cm)
	return []store.FamilyFigures{
		{Family: FamilyBlockActivity, Figures: blockActivity(cm.Messages)},
		{Family: FamilyMilestoneSize, Figures: milestoneSize(cm.Messages)},
		{Family: FamilyActiveAddresses, Figures: activeAddresses(txs)},
		{Family: FamilyBaseTokens, Figures: baseTokens(txs, cm.Timestamp.Unix())},
		{Family: FamilyOutputActivity, Figures: outputActivity(txs)},
		{Family: FamilyTransactionSize, Figures: transactionSize(txs)},
	}
}

// activityWrites are the milestone's activity family rows: all six, with its
// chain-order timestamp.
func activityWrites(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write {
	return st.FamilyWrites(cm.Index, cm.Timestamp, ActivityFamilies(cm))
}

// txChange is one included transaction as Chronicle's handle_transaction receives it:
// consumed are its inputs as the ledger held them, with their spend; created its
// outputs.
type txChange struct {
	consumed []*chain.LedgerSpent
	created  []*chain.LedgerOutput
}

// txChanges lists the milestone's included transactions in white-flag order. A
// consumed output names the transaction that spent it; a created output's ID holds the
// transaction that created it, so outputs no transaction created (genesis, receipts)
// belong to none.
func txChanges(cm *chain.ConfirmedMilestone) []txChange {
	spent := map[chain.TransactionID][]*chain.LedgerSpent{}
	for i := range cm.Consumed {
		ls := &cm.Consumed[i]
		spent[ls.SpentBy] = append(spent[ls.SpentBy], ls)
	}
	created := map[chain.TransactionID][]*chain.LedgerOutput{}
	for i := range cm.Created {
		lo := &cm.Created[i]
		tx := lo.OutputID.TransactionID()
		created[tx] = append(created[tx], lo)
	}
	var out []txChange
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		if tx := rm.Message.TransactionOf(); tx != nil && rm.InclusionState == chain.Included {
			id := tx.ID()
			out = append(out, txChange{consumed: spent[id], created: created[id]})
		}
	}
	return out
}

// ownerAt is Chronicle's owning address of an output judged at t (unix seconds): the
// expiration return address of a basic or NFT output once t reaches its expiration,
// otherwise Owner.
func ownerAt(o *chain.Output, t int64) (chain.Address, bool) {
	if e := o.Expiration; e != nil && (o.Kind == chain.OutputBasic || o.Kind == chain.OutputNFT) && t >= int64(e.UnixTime) {
		return e.ReturnAddress, true
	}
	return Owner(o)
}

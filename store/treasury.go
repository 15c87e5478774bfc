package store

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Treasury is a treasury output: the milestone that made it and its amount.
type Treasury struct {
	MilestoneID chain.MilestoneID
	Amount      uint64
}

// NewestTreasury is the newest treasury output the keyspace knows: the one the newest
// stored receipt left when its milestone lies past the bootstrap's ledger index L (or the
// keyspace was not bootstrapped), else the snapshot's at L, which the bootstrap record
// keeps. ok is false when the keyspace holds neither a receipt nor a bootstrap record. A
// receipt of a milestone not indexed (a gap) is not known.
func (st *Store) NewestTreasury(ctx context.Context) (t Treasury, ok bool, err error) {
	receipts, err := st.Receipts(ctx)
	if err != nil {
		return Treasury{}, false, err
	}
	boot, booted, err := st.LedgerBootstrap(ctx)
	if err != nil {
		return Treasury{}, false, err
	}
	newest, found := newestReceipt(receipts)
	if found && (!booted || newest.MilestoneIndex > boot.Index) {
		return Treasury{MilestoneID: newest.MilestoneID, Amount: newest.Receipt.Transaction.OutputAmount}, true, nil
	}
	if !booted {
		return Treasury{}, false, nil
	}
	id, err := bootstrapTreasuryID(boot)
	if err != nil {
		return Treasury{}, false, err
	}
	return Treasury{MilestoneID: id, Amount: boot.Treasury}, true, nil
}

// newestReceipt is the receipt of the highest milestone index.
func newestReceipt(rs []ReceiptRecord) (ReceiptRecord, bool) {
	var newest ReceiptRecord
	for _, r := range rs {
		if r.MilestoneIndex >= newest.MilestoneIndex {
			newest = r
		}
	}
	return newest, len(rs) > 0
}

// bootstrapTreasuryID is the bootstrap record's treasury milestone ID (every bootstrap
// records it; zero is the genesis treasury's).
func bootstrapTreasuryID(b LedgerBootstrap) (chain.MilestoneID, error) {
	id, err := chain.ParseMilestoneID(b.TreasuryMilestone)
	if err != nil {
		return chain.MilestoneID{}, fmt.Errorf("the bootstrap record's treasury milestone ID: %w", err)
	}
	return id, nil
}

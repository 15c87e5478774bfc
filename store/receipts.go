package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// errReceiptUnreadable: a receipts row does not decode.
var errReceiptUnreadable = errors.New("receipts row does not decode")

// ReceiptRecord is a stored receipt: the milestone that carried it and the receipt.
type ReceiptRecord struct {
	MilestoneIndex uint32
	MilestoneID    chain.MilestoneID
	Receipt        *chain.Receipt
}

// receipt writes the receipt a milestone carries, if it carries one. The row's key is the
// milestone's, so writing a milestone again writes the same row.
func (b *builder) receipt(ts int64, cm *chain.ConfirmedMilestone) {
	rc := cm.Milestone.Receipt
	if rc == nil {
		return
	}
	b.add(cql.InsertReceipt, ts, "receipts", int32(cql.ReceiptShard), int32(rc.MigratedAt), int32(cm.Index),
		cm.MilestoneID.String(), rc.Encode())
}

// Receipts lists every stored receipt, by migratedAt then milestone index (one partition:
// receipts are few).
func (st *Store) Receipts(ctx context.Context) ([]ReceiptRecord, error) {
	rows, err := cql.Records[receiptRow](ctx, st.s, cql.AllReceipts, []any{int32(cql.ReceiptShard)})
	if err != nil {
		return nil, fmt.Errorf("reading the receipts: %w", err)
	}
	return decodeReceipts(rows)
}

// ReceiptsMigratedAt lists the stored receipts of the funds migrated at a legacy milestone,
// by milestone index.
func (st *Store) ReceiptsMigratedAt(ctx context.Context, migratedAt uint32) ([]ReceiptRecord, error) {
	rows, err := cql.Records[receiptRow](ctx, st.s, cql.ReceiptsMigratedAt, []any{int32(cql.ReceiptShard), int32(migratedAt)})
	if err != nil {
		return nil, fmt.Errorf("reading the receipts migrated at %d: %w", migratedAt, err)
	}
	return decodeReceipts(rows)
}

// receiptRow is a receipts row as read: the receipt still in bytes.
type receiptRow struct {
	MigratedAt  int32  `cql:"migrated_at"`
	Index       int32  `cql:"milestone_index"`
	MilestoneID string `cql:"milestone_id"`
	Raw         []byte `cql:"receipt"`
}

func decodeReceipts(rows []receiptRow) ([]ReceiptRecord, error) {
	out := make([]ReceiptRecord, len(rows))
	for i, r := range rows {
		id, err := chain.ParseMilestoneID(r.MilestoneID)
		if err != nil {
			return nil, fmt.Errorf("the receipt of milestone %d: its milestone ID: %w: %w", r.Index, errReceiptUnreadable, err)
		}
		rc, err := chain.DecodeReceipt(r.Raw)
		if err != nil {
			return nil, fmt.Errorf("the receipt of milestone %d: %w: %w", r.Index, errReceiptUnreadable, err)
		}
		out[i] = ReceiptRecord{MilestoneIndex: uint32(r.Index), MilestoneID: id, Receipt: rc}
	}
	return out, nil
}

package api

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// receiptsJSON is TIP-25's /receipts answer (Hornet's receiptsResponse).
type receiptsJSON struct {
	Receipts []receiptTupleJSON `json:"receipts"`
}

// receiptTupleJSON is a receipt and the index of the milestone that carried it.
type receiptTupleJSON struct {
	Receipt        *tip25.ReceiptJSON `json:"receipt"`
	MilestoneIndex uint32             `json:"milestoneIndex"`
}

// treasuryJSON is TIP-25's /treasury answer: the treasury output and the milestone that
// made it.
type treasuryJSON struct {
	MilestoneID string `json:"milestoneId"`
	Amount      string `json:"amount"`
}

// noTreasuryWhy is the 404 of /treasury in a keyspace that knows no treasury output.
const noTreasuryWhy = "no treasury output is known: this keyspace was not bootstrapped from a snapshot " +
	"(whose header holds the treasury) and none of its milestones carries a receipt"

// coreReceipts lists every stored receipt, by migratedAt then milestone index, as Hornet
// lists its receipt store.
func (s *coreAPI) coreReceipts(ctx context.Context, _ *input) (any, error) {
	rs, err := s.st.Receipts(ctx)
	if err != nil {
		return nil, err
	}
	return receiptsAnswer(rs)
}

type migratedAtParams struct {
	MigratedAt uint32 `path:"migratedAt" kind:"index" doc:"legacy milestone index the funds migrated at"`
}

// coreReceiptsMigratedAt lists the receipts of the funds migrated at a legacy milestone
// (an empty list when there are none, as Hornet answers).
func (s *coreAPI) coreReceiptsMigratedAt(ctx context.Context, _ *input, p *migratedAtParams) (any, error) {
	rs, err := s.st.ReceiptsMigratedAt(ctx, p.MigratedAt)
	if err != nil {
		return nil, err
	}
	return receiptsAnswer(rs)
}

func receiptsAnswer(rs []store.ReceiptRecord) (*receiptsJSON, error) {
	out := &receiptsJSON{Receipts: make([]receiptTupleJSON, len(rs))}
	for i, r := range rs {
		j, err := tip25.Receipt(r.Receipt)
		if err != nil {
			return nil, fmt.Errorf("the receipt of milestone %d: %w", r.MilestoneIndex, err)
		}
		out.Receipts[i] = receiptTupleJSON{Receipt: j, MilestoneIndex: r.MilestoneIndex}
	}
	return out, nil
}

// coreTreasury is the newest treasury output the keyspace knows (store.NewestTreasury),
// 404 when it knows none.
func (s *coreAPI) coreTreasury(ctx context.Context, _ *input) (any, error) {
	t, ok, err := s.st.NewestTreasury(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("%s", noTreasuryWhy)
	}
	return treasuryJSON{MilestoneID: t.MilestoneID.String(), Amount: fmt.Sprint(t.Amount)}, nil
}

// receiptSchemas are the OpenAPI schemas of the receipt and treasury answers.
func receiptSchemas() object {
	str, integer, boolean := object{"type": "string"}, object{"type": "integer"}, object{"type": "boolean"}
	address := props("type", integer, "pubKeyHash", str)
	treasuryTx := props("type", integer, "input", props("type", integer, "milestoneId", str),
		"output", props("type", integer, "amount", str))
	receipt := props("type", integer, "migratedAt", integer, "final", boolean,
		"funds", arrayOf(props("tailTransactionHash", str, "address", address, "deposit", str)),
		"transaction", treasuryTx)
	return object{
		"CoreReceipts": props("receipts", arrayOf(props("receipt", receipt, "milestoneIndex", integer))),
		"CoreTreasury": props("milestoneId", str, "amount", str),
	}
}

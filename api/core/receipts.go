package core

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// ReceiptsJSON is TIP-25's /receipts answer (Hornet's receiptsResponse).
type ReceiptsJSON struct {
	Receipts []ReceiptTupleJSON `json:"receipts"`
}

// ReceiptTupleJSON is a receipt and the index of the milestone that carried it.
type ReceiptTupleJSON struct {
	Receipt        *tip25.ReceiptJSON `json:"receipt"`
	MilestoneIndex uint32             `json:"milestoneIndex"`
}

// TreasuryJSON is TIP-25's /treasury answer: the treasury output and the milestone that
// made it.
type TreasuryJSON struct {
	MilestoneID string `json:"milestoneId"`
	Amount      string `json:"amount"`
}

// noTreasuryWhy is the 404 of /treasury in a keyspace that knows no treasury output.
const noTreasuryWhy = "no treasury output is known: this keyspace was not bootstrapped from a snapshot " +
	"(whose header holds the treasury) and none of its milestones carries a receipt"

// coreReceipts lists every stored receipt, by migratedAt then milestone index, as Hornet
// lists its receipt store.
func (s *API) coreReceipts(ctx context.Context, _ *rest.Input) (any, error) {
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
func (s *API) coreReceiptsMigratedAt(ctx context.Context, _ *rest.Input, p *migratedAtParams) (any, error) {
	rs, err := s.st.ReceiptsMigratedAt(ctx, p.MigratedAt)
	if err != nil {
		return nil, err
	}
	return receiptsAnswer(rs)
}

func receiptsAnswer(rs []store.ReceiptRecord) (*ReceiptsJSON, error) {
	out := &ReceiptsJSON{Receipts: make([]ReceiptTupleJSON, len(rs))}
	for i, r := range rs {
		j, err := tip25.Receipt(r.Receipt)
		if err != nil {
			return nil, fmt.Errorf("the receipt of milestone %d: %w", r.MilestoneIndex, err)
		}
		out.Receipts[i] = ReceiptTupleJSON{Receipt: j, MilestoneIndex: r.MilestoneIndex}
	}
	return out, nil
}

// coreTreasury is the newest treasury output the keyspace knows (store.NewestTreasury),
// 404 when it knows none.
func (s *API) coreTreasury(ctx context.Context, _ *rest.Input) (any, error) {
	t, ok, err := s.st.NewestTreasury(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, rest.NotFound("%s", noTreasuryWhy)
	}
	return TreasuryJSON{MilestoneID: t.MilestoneID.String(), Amount: fmt.Sprint(t.Amount)}, nil
}

// receiptSchemas are the OpenAPI schemas of the receipt and treasury answers.
func receiptSchemas() rest.Object {
	str, integer, boolean := rest.Object{"type": "string"}, rest.Object{"type": "integer"}, rest.Object{"type": "boolean"}
	address := rest.Props("type", integer, "pubKeyHash", str)
	treasuryTx := rest.Props("type", integer, "input", rest.Props("type", integer, "milestoneId", str),
		"output", rest.Props("type", integer, "amount", str))
	receipt := rest.Props("type", integer, "migratedAt", integer, "final", boolean,
		"funds", rest.ArrayOf(rest.Props("tailTransactionHash", str, "address", address, "deposit", str)),
		"transaction", treasuryTx)
	return rest.Object{
		"CoreReceipts": rest.Props("receipts", rest.ArrayOf(rest.Props("receipt", receipt, "milestoneIndex", integer))),
		"CoreTreasury": rest.Props("milestoneId", str, "amount", str),
	}
}

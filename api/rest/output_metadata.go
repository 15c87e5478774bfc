package rest

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// MilestoneReader reads a milestone by index (store.ErrNotFound when it is not indexed).
type MilestoneReader func(ctx context.Context, index uint32) (store.MilestoneRecord, error)

// OutputMetadataAt is an output's TIP-25 metadata in the ledger at index at, as the core
// and wallet routes answer it: its booking (milestone booked, by block) and its spend,
// both from its output-table row; the spend only when a milestone up to at spent it,
// with that milestone's time. A spend past at (a later ledger, or one being written now)
// is not shown, nor one whose milestone is not indexed yet (a gap being filled: it shows
// once that milestone is written).
func OutputMetadataAt(ctx context.Context, id chain.OutputID, block chain.MessageID, row *store.OutputRow, booked, at uint32,
	milestone MilestoneReader) (*tip25.OutputMetadataJSON, error) {
	var spent *tip25.Spent
	if row.SpentBy != "" && row.SpentMilestoneIndex != nil && uint32(*row.SpentMilestoneIndex) <= at {
		tx, err := chain.ParseTransactionID(row.SpentBy)
		if err != nil {
			return nil, fmt.Errorf("output %s: spent by %q: %w", id, row.SpentBy, err)
		}
		index := uint32(*row.SpentMilestoneIndex)
		m, err := milestone(ctx, index)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("output %s: spending milestone %d: %w", id, index, err)
		}
		if err == nil {
			spent = &tip25.Spent{TransactionID: tx, MilestoneIndex: index, MilestoneTimestamp: uint32(m.Timestamp)}
		}
	}
	return tip25.OutputMetadata(id, block, tip25.Booked{MilestoneIndex: booked,
		MilestoneTimestamp: uint32(row.Timestamp.Unix())}, spent, at), nil
}

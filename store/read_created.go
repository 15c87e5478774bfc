package store

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// StoredCreation reads the creation of output id as the keyspace holds it: its bytes,
// the block whose transaction created it (zero for a genesis output), the milestone that
// booked it and that milestone's time. ok is false when the keyspace holds none. A node
// source takes a spent output's creation from here rather than from the node's
// metadata, which nothing signs.
//
// The read finds a creation by output ID alone, since the node may no longer serve the
// bytes that name an alias, NFT or foundry row's key, and is the cheapest that does:
//   - the output's basic_outputs partition (keyed by output ID, a row or two): one read
//     holds every fact of a basic output, which most spent outputs are, a genesis output
//     included (a genesis output has no transactions row);
//   - else its transactions output rows (a slice of the transaction's partition): the
//     bytes name the key of its alias, NFT or foundry row, whose slice of the booking
//     milestone holds the booking time (the milestone may precede the indexed ones and
//     have no milestones row).
//
// A miss costs two reads. unspent_outputs cannot be read by output ID (its partitions
// are a kind and a range), and legacy_outputs is not read: a node's ledger has no
// legacy outputs, which have no TIP-25 form. A genesis alias, NFT or foundry output,
// keyed by its chain and without a transactions row, is not found: no Stardust network's
// genesis has one.
func (st *Store) StoredCreation(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, bool, error) {
	lo, ok, err := st.basicCreation(ctx, id)
	if ok || err != nil {
		return lo, ok, err
	}
	return st.chainCreation(ctx, id)
}

// basicCreation reads the confirmed row of a basic output (its partition's other rows
// are pending ones, of messages not referenced yet).
func (st *Store) basicCreation(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, bool, error) {
	rows, _, err := st.OutputVersions(ctx, chain.OutputBasic, id.String(), PageRequest{Size: maxBookedVersions})
	if err != nil {
		return chain.LedgerOutput{}, false, fmt.Errorf("output %s: basic_outputs: %w", id, err)
	}
	for i := range rows {
		if r := &rows[i]; !r.Pending() && included(r.InclusionState) {
			lo, err := creation(id, r.Data, r.MessageID, r.MilestoneIndex, r.Timestamp)
			return lo, err == nil, err
		}
	}
	return chain.LedgerOutput{}, false, nil
}

// chainCreation reads an output's included transactions row, then the booking time
// from its output-table row. A transactions row without that row is a write not done
// yet (a milestone's rows land in groups): an error, so the caller retries.
func (st *Store) chainCreation(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, bool, error) {
	rows, err := st.OutputCreations(ctx, id)
	if err != nil {
		return chain.LedgerOutput{}, false, fmt.Errorf("output %s: transactions: %w", id, err)
	}
	for _, r := range rows {
		if !included(r.InclusionState) || r.MilestoneIndex == nil {
			continue
		}
		lo, err := creation(id, r.Data, r.MessageID, *r.MilestoneIndex, time.Time{})
		if err != nil {
			return chain.LedgerOutput{}, false, err
		}
		row, err := st.BookedOutput(ctx, id, &lo.Output, lo.MilestoneIndex)
		if err != nil {
			return chain.LedgerOutput{}, false, fmt.Errorf("output %s: the %s row booked in milestone %d: %w", id, lo.Output.Kind,
				lo.MilestoneIndex, err)
		}
		lo.Timestamp = row.Timestamp.UTC()
		return lo, true, nil
	}
	return chain.LedgerOutput{}, false, nil
}

func included(state *int8) bool {
	return state != nil && chain.InclusionState(*state) == chain.Included
}

// creation is a creation of stored columns. A row without a block names none (zero).
func creation(id chain.OutputID, data []byte, block string, index int32, at time.Time) (chain.LedgerOutput, error) {
	lo := chain.LedgerOutput{OutputID: id, MilestoneIndex: uint32(index), Timestamp: at.UTC()}
	var err error
	if lo.Output, err = chain.DecodeOutput(data); err != nil {
		return lo, fmt.Errorf("output %s: stored bytes: %w", id, err)
	}
	if block == "" {
		return lo, nil
	}
	if lo.MessageID, err = chain.ParseMessageID(block); err != nil {
		return lo, fmt.Errorf("output %s: stored block %q: %w", id, block, err)
	}
	return lo, nil
}

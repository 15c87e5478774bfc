package store

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// An output's row in its output table: by key and booking milestone (the node
// interface's outputs, the snapshot export's ledger), or through the view of the owner a
// milestone's ledger update names.

// maxBookedVersions bounds the rows read for one chain in one milestone (a chain has a
// version or two per milestone; the bound only caps a pathological key).
const maxBookedVersions = 64

// BookedOutput reads the output-table row of output id (whose decoded output is o),
// booked in milestone index: its booking time and, once spent, what spent it. One
// partition slice of one key; ErrNotFound when no such row exists.
func (st *Store) BookedOutput(ctx context.Context, id chain.OutputID, o *chain.Output, index uint32) (OutputRow, error) {
	t, err := outputTable(o.Kind)
	if err != nil {
		return OutputRow{}, err
	}
	stmt := cql.OutputsBooked[t.Table]
	args := []any{outputKey(o, id), st.RangeID(index), int32(index)}
	rows, _, err := st.outputPage(ctx, o.Kind, t, stmt, args, PageRequest{Size: maxBookedVersions})
	if err != nil {
		return OutputRow{}, err
	}
	for _, r := range rows {
		if r.OutputID == id.String() {
			return r, nil
		}
	}
	return OutputRow{}, ErrNotFound
}

// viewOfOwner is the view that holds an output by its owner (the address a milestone's
// ledger update names): the alias's state controller, a foundry's alias, an NFT's address.
var viewOfOwner = map[chain.OutputKind]string{chain.OutputAlias: "state_controller", chain.OutputFoundry: "address",
	chain.OutputNFT: "address"}

// BookedRow reads the output-table row of output id of kind, whose row key is key (the
// output ID of a basic output, the chain ID of the others, as unspent_outputs.chain_id
// holds it), booked in milestone index: one slice of one partition. ErrNotFound when no
// such row exists.
func (st *Store) BookedRow(ctx context.Context, kind chain.OutputKind, key string, id chain.OutputID, index uint32) (OutputRow, error) {
	t, err := outputTable(kind)
	if err != nil {
		return OutputRow{}, err
	}
	args := []any{key, st.RangeID(index), int32(index)}
	rows, _, err := st.outputPage(ctx, kind, t, cql.OutputsBooked[t.Table], args, PageRequest{Size: maxBookedVersions})
	if err != nil {
		return OutputRow{}, fmt.Errorf("output %s: %s row booked in %d: %w", id, t.Table, index, err)
	}
	for _, r := range rows {
		if r.OutputID == id.String() && !r.Pending() {
			return r, nil
		}
	}
	return OutputRow{}, fmt.Errorf("output %s: %s row booked in %d: %w", id, t.Table, index, ErrNotFound)
}

// UpdatedRow reads the output-table row of an output a milestone's ledger update names
// (created or consumed), by its output ID, kind and owner, with what spent it:
//   - a basic output's row is keyed by its output ID;
//   - an alias, foundry or NFT row by its chain's ID, which the bytes of its
//     transactions output row name (BookedRow of that key);
//   - an output no transaction created (a snapshot's genesis output) has no such row:
//     its owner's view partitions in partitions are read until it turns up.
//
// ErrNotFound when none of these holds it.
func (st *Store) UpdatedRow(ctx context.Context, u MilestoneUpdate, partitions []int32) (OutputRow, error) {
	id, err := chain.ParseOutputID(u.OutputID)
	if err != nil {
		return OutputRow{}, fmt.Errorf("ledger update of milestone %d: %w", u.MilestoneIndex, err)
	}
	kind, err := chain.ParseOutputKind(u.Kind)
	if err == nil {
		_, err = outputTable(kind)
	}
	if err != nil {
		return OutputRow{}, fmt.Errorf("ledger update of output %s: %w", id, err)
	}
	if kind == chain.OutputBasic {
		return st.basicRow(ctx, id)
	}
	r, ok, err := st.chainRowByTransaction(ctx, kind, id)
	if ok || err != nil {
		return r, err
	}
	return st.rowByOwner(ctx, kind, id, u.Address, partitions)
}

// basicRow reads the confirmed row of a basic output (its partition's other rows are
// pending ones).
func (st *Store) basicRow(ctx context.Context, id chain.OutputID) (OutputRow, error) {
	rows, _, err := st.OutputVersions(ctx, chain.OutputBasic, id.String(), PageRequest{Size: maxBookedVersions})
	if err != nil {
		return OutputRow{}, fmt.Errorf("output %s: basic_outputs: %w", id, err)
	}
	for _, r := range rows {
		if !r.Pending() && included(r.InclusionState) {
			return r, nil
		}
	}
	return OutputRow{}, fmt.Errorf("output %s: basic_outputs: %w", id, ErrNotFound)
}

// chainRowByTransaction reads a chain output's row through its included transactions
// output row, whose bytes name the row's key; ok is false when it has no such row.
func (st *Store) chainRowByTransaction(ctx context.Context, kind chain.OutputKind, id chain.OutputID) (OutputRow, bool, error) {
	txRows, err := st.OutputCreations(ctx, id)
	if err != nil {
		return OutputRow{}, false, fmt.Errorf("output %s: transactions: %w", id, err)
	}
	for _, tr := range txRows {
		if !included(tr.InclusionState) || tr.MilestoneIndex == nil {
			continue
		}
		o, err := chain.DecodeOutput(tr.Data)
		if err != nil {
			return OutputRow{}, false, fmt.Errorf("output %s: transactions bytes: %w", id, err)
		}
		if o.Kind != kind {
			return OutputRow{}, false, fmt.Errorf("output %s: a %s output in transactions, a %s one in its ledger update", id, o.Kind, kind)
		}
		r, err := st.BookedRow(ctx, kind, outputKey(&o, id), id, uint32(*tr.MilestoneIndex))
		return r, err == nil, err
	}
	return OutputRow{}, false, nil
}

// rowByOwner pages through the owner's view partitions for the output's row.
func (st *Store) rowByOwner(ctx context.Context, kind chain.OutputKind, id chain.OutputID, owner string, partitions []int32) (OutputRow, error) {
	column := viewOfOwner[kind]
	for _, rng := range partitions {
		req := PageRequest{Size: 500}
		for {
			rows, next, err := st.OutputsPage(ctx, kind, column, owner, rng, TimeRange{}, req)
			if err != nil {
				return OutputRow{}, fmt.Errorf("output %s: %s view of %s, partition %d: %w", id, kind, owner, rng, err)
			}
			for _, r := range rows {
				if r.OutputID == id.String() && included(r.InclusionState) {
					return r, nil
				}
			}
			if len(next) == 0 {
				break
			}
			req.State = next
		}
	}
	return OutputRow{}, fmt.Errorf("output %s (%s, owner %s): no row by output ID, transaction or owner: %w", id, kind, owner, ErrNotFound)
}

package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// The ledger families' fold (migration 000013): a milestone's ledger deltas, written with
// its rows, and the owning addresses' balances, written by the fold. Package analytics
// computes both; this file only stores and reads them.

// LedgerDelta is what one milestone's included transactions changed in the ledger
// families: the signed change of each additive figure ("ledger_outputs.basic.count")
// and of each owning address's balance (bech32). Zero changes are left out.
type LedgerDelta struct {
	Figures  map[string]int64
	Balances map[string]int64
}

// LedgerDeltaWrites is a milestone's delta row as part of its write set, with its
// chain-order timestamp: a replay of the milestone rewrites the same row.
func (st *Store) LedgerDeltaWrites(index uint32, d LedgerDelta) []Write {
	return []Write{{stmt: cql.InsertLedgerDelta, TS: Timestamp(index, PhaseConfirmed),
		Partition: "ledger_family_deltas", Args: []any{st.RangeID(index), int32(index), d.Figures, d.Balances}}}
}

// ReadLedgerDelta reads a milestone's delta row; ok is false when it has none (the
// milestone was written without analytics).
func (st *Store) ReadLedgerDelta(ctx context.Context, index uint32) (d LedgerDelta, ok bool, err error) {
	err = st.s.Scan(ctx, cql.LedgerDelta, []any{st.RangeID(index), int32(index)}, &d.Figures, &d.Balances)
	if errors.Is(err, gocql.ErrNotFound) {
		return d, false, nil
	}
	if err != nil {
		return d, false, fmt.Errorf("ledger deltas of milestone %d: %w", index, err)
	}
	return d, true, nil
}

// AddressBalanceAt reads an address's balance at milestone index: its newest row at or
// before it, 0 when it has none.
func (st *Store) AddressBalanceAt(ctx context.Context, address string, index uint32) (int64, error) {
	var at int32
	var balance int64
	err := st.s.Scan(ctx, cql.AddressBalanceAt, []any{address, clampInt32(uint64(index))}, &at, &balance)
	if errors.Is(err, gocql.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("balance of %s at %d: %w", address, index, err)
	}
	return balance, nil
}

// WriteAddressBalances stores the balances of addresses after milestone index (0: no
// balance), with the client's clock, so they replace an earlier fold's.
func (st *Store) WriteAddressBalances(ctx context.Context, index uint32, balances map[string]int64, parallel int) error {
	ts := time.Now().UnixMicro()
	writes := make([]Write, 0, len(balances))
	for a, b := range balances {
		writes = append(writes, Write{stmt: cql.InsertAddressBalance, TS: ts, Partition: a,
			Args: []any{a, int32(index), b}})
	}
	if err := st.Apply(ctx, writes, parallel); err != nil {
		return fmt.Errorf("address balances at %d: %w", index, err)
	}
	return nil
}

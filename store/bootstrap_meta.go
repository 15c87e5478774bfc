package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// LedgerBootstrapConcern is the indexer_meta row a finished snapshot bootstrap writes
// last: until it exists no ledger row of a bootstrap is served as complete. Its
// watermark is Index, so a later bootstrap (a newer snapshot) replaces it and an older
// one never does.
const LedgerBootstrapConcern = "ledger_bootstrap"

// LedgerBootstrap is what a keyspace records of the snapshot it was bootstrapped from:
// the ledger it holds is the whole unspent set at milestone Index.
type LedgerBootstrap struct {
	Index              uint32 `json:"index"`              // the ledger's milestone (L): the last one the files reach
	MilestoneID        string `json:"milestoneId"`        // L's milestone ID
	MilestoneTimestamp uint32 `json:"milestoneTimestamp"` // L's timestamp (Unix seconds)
	Kind               string `json:"kind"`               // "full", or "full+delta"
	TargetIndex        uint32 `json:"targetIndex"`        // the full file's target milestone index
	LedgerIndex        uint32 `json:"ledgerIndex"`        // the full file's ledger milestone index
	GenesisIndex       uint32 `json:"genesisIndex"`       // the full file's genesis milestone index
	Outputs            uint64 `json:"outputs"`            // unspent outputs at Index
	Supply             uint64 `json:"supply"`             // their amounts plus the treasury: the token supply
	Treasury           uint64 `json:"treasury"`           // the treasury output's amount at Index
	OldestBooked       uint32 `json:"oldestBooked"`       // the oldest booked milestone of its outputs: their rows lie in ms_range_id partitions from RangeID(OldestBooked) on
}

// LedgerBootstrap reads the keyspace's bootstrap record; ok is false when the keyspace
// was never bootstrapped from a snapshot.
func (st *Store) LedgerBootstrap(ctx context.Context) (b LedgerBootstrap, ok bool, err error) {
	value, _, _, err := st.Meta(ctx, LedgerBootstrapConcern)
	if errors.Is(err, ErrNotFound) {
		return b, false, nil
	}
	if err != nil {
		return b, false, err
	}
	if err := json.Unmarshal([]byte(value), &b); err != nil {
		return b, false, fmt.Errorf("indexer_meta %s %q: %w", LedgerBootstrapConcern, value, err)
	}
	return b, true, nil
}

// RecordLedgerBootstrap writes the bootstrap record unless one of a newer ledger index
// is there. Recording the same bootstrap again changes nothing.
func (st *Store) RecordLedgerBootstrap(ctx context.Context, b LedgerBootstrap, node string) error {
	value, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if _, err := st.AdvanceWatermark(ctx, LedgerBootstrapConcern, int64(b.Index), string(value), node); err != nil {
		return fmt.Errorf("recording the ledger bootstrap at %d: %w", b.Index, err)
	}
	return nil
}

package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// LedgerBootstrapConcern is the indexer_meta row a finished snapshot bootstrap writes
// last: until it exists no ledger row of a bootstrap is served as complete. Its
// watermark is Index, so a later bootstrap (a newer snapshot) replaces it and an older
// one never does.
const LedgerBootstrapConcern = "ledger_bootstrap"

// LedgerBootstrap is what a keyspace records of the snapshot it was bootstrapped from:
// the ledger it holds is the whole unspent set at milestone Index.
type LedgerBootstrap struct {
	Index              uint32 `json:"index"`               // the ledger's milestone (L): the last one the files reach
	MilestoneID        string `json:"milestoneId"`         // L's milestone ID
	MilestoneTimestamp uint32 `json:"milestoneTimestamp"`  // L's timestamp (Unix seconds)
	Kind               string `json:"kind"`                // "full", or "full+delta"
	TargetIndex        uint32 `json:"targetIndex"`         // the full file's target milestone index
	LedgerIndex        uint32 `json:"ledgerIndex"`         // the full file's ledger milestone index
	GenesisIndex       uint32 `json:"genesisIndex"`        // the full file's genesis milestone index
	Outputs            uint64 `json:"outputs"`             // unspent outputs at Index
	Supply             uint64 `json:"supply"`              // their amounts plus the treasury: the token supply
	Treasury           uint64 `json:"treasury"`            // the treasury output's amount at Index
	TreasuryMilestone  string `json:"treasuryMilestoneId"` // and the milestone that made it (0x-hex; zero: the genesis treasury)
	OldestBooked       uint32 `json:"oldestBooked"`        // the oldest booked milestone of its outputs: their rows lie in ms_range_id partitions from RangeID(OldestBooked) on
	// The full file's protocol parameters milestone option, as an export writes it again.
	ParamsTargetIndex uint32 `json:"paramsTargetIndex"`
	ProtocolVersion   uint8  `json:"protocolVersion"`
	Params            string `json:"params"` // 0x-hex, the serialized parameters
}

// LedgerBootstrap reads the keyspace's bootstrap record; ok is false when the keyspace
// was never bootstrapped from a snapshot.
func (st *Store) LedgerBootstrap(ctx context.Context) (LedgerBootstrap, bool, error) {
	return metaJSON[LedgerBootstrap](ctx, st, LedgerBootstrapConcern)
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
	st.bootstrap.Store(nil) // this process sees its own bootstrap at once, not after the cache's TTL
	return nil
}

// bootstrapProgressConcern names the checkpoint row of a bootstrap of one pair of files
// (identified by a digest of their headers and sizes): its watermark is how many of the
// full file's outputs are written, so an interrupted bootstrap resumes there.
func bootstrapProgressConcern(files string) string { return "ledger_bootstrap_progress/" + files }

// BootstrapProgress is how many outputs of the files' output list are written (0 when
// no bootstrap of these files began).
func (st *Store) BootstrapProgress(ctx context.Context, files string) (uint64, error) {
	_, w, _, err := st.Meta(ctx, bootstrapProgressConcern(files))
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading the bootstrap checkpoint: %w", err)
	}
	return uint64(max(w, 0)), nil
}

// SaveBootstrapProgress advances the checkpoint of the files' bootstrap to done outputs
// (never back).
func (st *Store) SaveBootstrapProgress(ctx context.Context, files string, done uint64, node string) error {
	if _, err := st.AdvanceWatermark(ctx, bootstrapProgressConcern(files), int64(done), "", node); err != nil {
		return fmt.Errorf("saving the bootstrap checkpoint: %w", err)
	}
	return nil
}

// bootstrapSEPsConcern holds the solid entry points of the snapshot file that reaches
// the bootstrap's ledger index: an export at that index writes them again. A row of its
// own keeps the bootstrap record, which the API reads often, small.
const bootstrapSEPsConcern = "ledger_bootstrap_seps"

// RecordBootstrapSEPs stores the solid entry points (block IDs) of the bootstrap at index.
func (st *Store) RecordBootstrapSEPs(ctx context.Context, index uint32, seps []chain.MessageID, node string) error {
	value, err := json.Marshal(seps)
	if err != nil {
		return err
	}
	if _, err := st.AdvanceWatermark(ctx, bootstrapSEPsConcern, int64(index), string(value), node); err != nil {
		return fmt.Errorf("recording the bootstrap's solid entry points: %w", err)
	}
	return nil
}

// BootstrapSEPs reads the solid entry points of the bootstrap at index (ErrNotFound when
// none are recorded for it).
func (st *Store) BootstrapSEPs(ctx context.Context, index uint32) ([]chain.MessageID, error) {
	value, w, _, err := st.Meta(ctx, bootstrapSEPsConcern)
	if err != nil {
		return nil, err
	}
	if w != int64(index) {
		return nil, fmt.Errorf("%w: solid entry points of the bootstrap at %d (recorded: at %d)", ErrNotFound, index, w)
	}
	var seps []chain.MessageID
	if err := json.Unmarshal([]byte(value), &seps); err != nil {
		return nil, fmt.Errorf("indexer_meta %s: %w", bootstrapSEPsConcern, err)
	}
	return seps, nil
}

// bootstrapBegunConcern's watermark is the newest ledger index a bootstrap began to write
// (before its first row): a bootstrap killed before its record leaves its index here, so
// another snapshot's bootstrap cannot mix its rows with the unfinished one's.
const bootstrapBegunConcern = "ledger_bootstrap_begun"

// RecordBootstrapBegun notes that a bootstrap of the ledger at index starts writing.
func (st *Store) RecordBootstrapBegun(ctx context.Context, index uint32, node string) error {
	if _, err := st.AdvanceWatermark(ctx, bootstrapBegunConcern, int64(index), "", node); err != nil {
		return fmt.Errorf("recording the bootstrap's start at %d: %w", index, err)
	}
	return nil
}

// BootstrapBegun is the newest ledger index a bootstrap began to write (ok false when
// none began since this row exists).
func (st *Store) BootstrapBegun(ctx context.Context) (index uint32, ok bool, err error) {
	_, w, _, err := st.Meta(ctx, bootstrapBegunConcern)
	if errors.Is(err, ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("reading the bootstrap's start: %w", err)
	}
	return uint32(max(w, 0)), true, nil
}

package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// LedgerFamiliesConcern is the indexer_meta row of the ledger families' fold: its
// watermark is the newest milestone whose ledger families are stored, its value the
// LedgerFamiliesState (JSON).
const LedgerFamiliesConcern = "ledger_families"

// LedgerFamiliesState is how far the ledger families are folded and what they describe.
type LedgerFamiliesState struct {
	Base      uint32 `json:"base"`      // the milestone of the base figures (a recount or zero)
	Watermark uint32 `json:"watermark"` // the newest milestone folded
	// Complete: the base described the whole ledger (a snapshot bootstrap), so every
	// folded milestone's figures are the network's; otherwise they cover only what the
	// keyspace indexed since Base.
	Complete bool `json:"complete"`
	// Protocol is the protocol_parameters row's detail the fold wrote last (TIP-25 JSON):
	// the fold writes a row where the recorded parameters differ from it.
	Protocol string `json:"protocol,omitempty"`
}

// LedgerFamilies reads the fold's state; ok is false before the first fold.
func (st *Store) LedgerFamilies(ctx context.Context) (LedgerFamiliesState, bool, error) {
	return metaJSON[LedgerFamiliesState](ctx, st, LedgerFamiliesConcern)
}

// AdvanceLedgerFamilies records the fold's state if its watermark is newer than the
// stored one (monotonic, across nodes).
func (st *Store) AdvanceLedgerFamilies(ctx context.Context, s LedgerFamiliesState, node string) error {
	value, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encoding the ledger families' state: %w", err)
	}
	_, err = st.AdvanceWatermark(ctx, LedgerFamiliesConcern, int64(s.Watermark), string(value), node)
	return err
}

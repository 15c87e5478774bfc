package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
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
	// RefoldFrom, when not 0, is the first milestone whose figures must be folded again
	// (its delta rows were rewritten, or are being rewritten, by a recompute): the fold
	// goes on from min(Watermark+1, RefoldFrom), and moves it on as it refolds. Recorded
	// before the rewrite, it survives a crash between the rewrite and the refold.
	RefoldFrom uint32 `json:"refold_from,omitempty"`
}

// ErrFoldStateMoved: the fold's state row is no longer at the watermark the writer read
// (another node's fold moved it on): the writer lost the fold and stops.
var ErrFoldStateMoved = errors.New("the ledger families' fold state moved on under this writer")

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

// ReplaceLedgerFamilies records the fold's state at the watermark the row holds now
// (s.Watermark): a refold of milestones at or below it, or a refold recorded, changes
// the state without moving the watermark. It is conditional on the watermark, so a fold
// that moved on meanwhile is not overwritten (ErrFoldStateMoved).
func (st *Store) ReplaceLedgerFamilies(ctx context.Context, s LedgerFamiliesState, node string) error {
	value, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encoding the ledger families' state: %w", err)
	}
	w := int64(s.Watermark)
	applied, _, err := st.s.CAS(ctx, cql.SwapMeta, w, string(value), node, LedgerFamiliesConcern, w)
	if err != nil {
		return fmt.Errorf("recording the ledger families' state at %d: %w", s.Watermark, err)
	}
	if !applied {
		return fmt.Errorf("%w (recording it at %d)", ErrFoldStateMoved, s.Watermark)
	}
	return nil
}

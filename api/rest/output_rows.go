package rest

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Picking an output's rows, as the schema's read routes and the core routes both read them.

// PickCreatedAndSpend picks the output row of the included attachment (else any) and
// the unlock row of the included spend, if there is one: a conflicting spend did not
// spend anything.
func PickCreatedAndSpend(rows []store.TxRow) (created, spend *store.TxRow) {
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Variant == store.VariantOutput && (created == nil || isIncluded(r)):
			created = r
		case r.Variant == store.VariantUnlock && isIncluded(r):
			spend = r
		}
	}
	return created, spend
}

func isIncluded(r *store.TxRow) bool {
	return r.InclusionState != nil && chain.InclusionState(*r.InclusionState) == chain.Included
}

// ConfirmedRow is the first row not in the pending partition, else the first row.
func ConfirmedRow(rows []store.OutputRow) *store.OutputRow {
	for i := range rows {
		if !rows[i].Pending() {
			return &rows[i]
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return &rows[0]
}

// LedgerOutput is an output of the ledger as the routes read it: the output, its
// bytes, the block that created it and its output-table row (booking time and spend).
type LedgerOutput struct {
	ID     chain.OutputID
	Output chain.Output
	Raw    []byte
	Block  chain.MessageID // zero for genesis outputs
	Booked uint32
	Row    store.OutputRow
}

// genesisOutput finds an output no transaction row describes in basic_outputs (where
// genesis outputs are); a legacy output gets a clear 404: it has no TIP-25 form.
func (s *Reads) genesisOutput(ctx context.Context, id chain.OutputID) (*LedgerOutput, error) {
	rows, _, err := s.st.OutputVersions(ctx, chain.OutputBasic, id.String(), store.PageRequest{Size: 16})
	if err != nil {
		return nil, err
	}
	r := ConfirmedRow(rows)
	if r == nil || r.Pending() {
		if _, err := s.st.LegacyOutput(ctx, id.String()); err == nil {
			return nil, legacyOutput(id)
		}
		return nil, NotFound("output %s is not indexed", id)
	}
	lo := &LedgerOutput{ID: id, Raw: r.Data, Booked: uint32(r.MilestoneIndex), Row: *r}
	lo.Output, err = decodeLedgerOutput(id, r.Data)
	return lo, err
}

func decodeLedgerOutput(id chain.OutputID, data []byte) (chain.Output, error) {
	o, err := chain.DecodeOutput(data)
	switch {
	case err != nil:
		return o, fmt.Errorf("output %s: stored bytes do not decode: %w", id, err)
	case o.Kind == chain.OutputLegacy:
		return o, legacyOutput(id)
	}
	return o, nil
}

// LedgerOutput finds a booked output: through the transactions row of the transaction
// that created it (and that output's row in its output table, found by key and booking
// milestone), or, for a genesis output no transaction created, its basic_outputs rows.
// Outputs of transactions no milestone included are not in the ledger: 404.
func (s *Reads) LedgerOutput(ctx context.Context, id chain.OutputID) (*LedgerOutput, error) {
	rows, err := s.st.OutputCreations(ctx, id)
	if err != nil {
		return nil, err
	}
	created, _ := PickCreatedAndSpend(rows)
	switch {
	case created == nil:
		return s.genesisOutput(ctx, id)
	case !isIncluded(created) || created.MilestoneIndex == nil:
		return nil, NotFound("output %s is not in the ledger: no milestone included the transaction creating it", id)
	}
	lo := &LedgerOutput{ID: id, Raw: created.Data, Booked: uint32(*created.MilestoneIndex)}
	if lo.Block, err = chain.ParseMessageID(created.MessageID); err != nil {
		return nil, fmt.Errorf("output %s: creating block %q: %w", id, created.MessageID, err)
	}
	if lo.Output, err = decodeLedgerOutput(id, created.Data); err != nil {
		return nil, err
	}
	lo.Row, err = s.st.BookedOutput(ctx, id, &lo.Output, lo.Booked)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("output %s: no output-table row booked in milestone %d", id, lo.Booked)
	}
	return lo, err
}

func legacyOutput(id chain.OutputID) *APIError {
	return NotFound("output %s is a legacy (pre-Stardust) output, which has no TIP-25 form; "+
		"GET /outputs/%s serves it", id, id)
}

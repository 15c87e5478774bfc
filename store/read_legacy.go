package store

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// LegacyRow is a legacy_outputs row: a pre-Stardust output, used (spent) or not.
type LegacyRow struct {
	OutputID       string    `cql:"output_id"`
	OutputType     int8      `cql:"output_type"`
	IsUsed         bool      `cql:"is_used"`
	RangeID        int32     `cql:"ms_range_id"`
	MilestoneIndex int32     `cql:"milestone_index"`
	Timestamp      time.Time `cql:"ms_timestamp"`
	InclusionState *int8     `cql:"inclusion_state"`
	MessageID      string    `cql:"message_id"`
	Amount         int64     `cql:"amount"`
	Address        string    `cql:"address"`
	Data           []byte    `cql:"data"`
}

// LegacyOutput reads the rows of one legacy output: the unused row, or the used one
// once spent. ErrNotFound if there is none.
func (st *Store) LegacyOutput(ctx context.Context, outputID string) ([]LegacyRow, error) {
	rows, err := cql.Records[LegacyRow](ctx, st.s, cql.LegacyOutputByID, []any{outputID})
	if err == nil && len(rows) == 0 {
		err = ErrNotFound
	}
	return rows, err
}

// LegacyPage reads one page of the legacy outputs of an address in partition rng:
// unused ones first, each group newest first (the view's clustering order).
func (st *Store) LegacyPage(ctx context.Context, address string, rng int32, req PageRequest) ([]LegacyRow, []byte, error) {
	return readRows[LegacyRow](ctx, st, cql.LegacyOutputsByAddress, []any{address, rng}, req)
}

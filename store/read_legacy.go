package store

import (
	"context"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// LegacyRow is a legacy_outputs row: a pre-Stardust output, used (spent) or not.
type LegacyRow struct {
	OutputID       string
	OutputType     int8
	IsUsed         bool
	RangeID        int32
	MilestoneIndex int32
	Timestamp      time.Time
	InclusionState *int8
	MessageID      string
	Amount         int64
	Address        string
	Data           []byte
}

// LegacyOutput reads the rows of one legacy output: the unused row, or the used one
// once spent. ErrNotFound if there is none.
func (st *Store) LegacyOutput(ctx context.Context, outputID string) ([]LegacyRow, error) {
	rows, err := cql.Collect(ctx, st.S, cql.LegacyOutputByID, []any{outputID}, scanLegacyRow)
	if err == nil && len(rows) == 0 {
		err = ErrNotFound
	}
	return rows, err
}

// LegacyPage reads one page of the legacy outputs of an address in partition rng:
// unused ones first, each group newest first (the view's clustering order).
func (st *Store) LegacyPage(ctx context.Context, address string, rng int32, req PageRequest) ([]LegacyRow, []byte, error) {
	return cql.CollectPage(ctx, st.S, cql.LegacyOutputsByAddress, []any{address, rng}, req.Size, req.State, scanLegacyRow)
}

func scanLegacyRow(it *gocql.Iter, r *LegacyRow) bool {
	return it.Scan(&r.OutputID, &r.OutputType, &r.IsUsed, &r.RangeID, &r.MilestoneIndex, &r.Timestamp,
		&r.InclusionState, &r.MessageID, &r.Amount, &r.Address, &r.Data)
}

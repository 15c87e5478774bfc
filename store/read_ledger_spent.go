package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// SpentTwinHolds reports whether the spent twin holds milestone index's spends: whether
// the milestone was written by an indexer that writes the twin.
func (st *Store) SpentTwinHolds(ctx context.Context, index uint32) (bool, error) {
	var got int32
	err := st.s.Scan(ctx, cql.SpentMilestone, []any{RangeID(index, st.ChunkSize), int32(index)}, &got)
	if errors.Is(err, gocql.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("spent twin of milestone %d: %w", index, err)
	}
	return true, nil
}

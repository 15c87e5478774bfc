package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A versioned meta row is an indexer_meta row whose value is JSON and whose watermark
// is a version that every replacement compares and sets, so concurrent writers never
// lose each other's changes (the sync summary, the unavailable milestones).

// readVersioned decodes concern's value and reads its version (0 and the zero value: no
// row yet); a value that does not decode wraps unreadable.
func readVersioned[T any](ctx context.Context, st *Store, concern string, unreadable error) (T, int64, error) {
	var v T
	value, version, _, err := st.Meta(ctx, concern)
	if errors.Is(err, ErrNotFound) {
		return v, 0, nil
	}
	if err != nil {
		return v, 0, err
	}
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		return v, 0, fmt.Errorf("%w: %w", unreadable, err)
	}
	return v, version, nil
}

// swapVersioned stores next as concern's value if the row is still at version (0: absent).
func (st *Store) swapVersioned(ctx context.Context, concern string, next any, version int64, node string) (bool, error) {
	value, err := json.Marshal(next)
	if err != nil {
		return false, err
	}
	if version == 0 {
		applied, _, err := st.s.CAS(ctx, cql.InitMeta, concern, string(value), int64(1), node)
		return applied, err
	}
	applied, _, err := st.s.CAS(ctx, cql.SwapMeta, version+1, string(value), node, concern, version)
	return applied, err
}

// changeVersioned applies change to concern's value by compare-and-set, reading again
// when another writer got there first (contended after summarySwapTries losses); a value
// change leaves as it is (unchanged false) is not written. It returns the value stored.
func changeVersioned[T any](ctx context.Context, st *Store, concern, node string, unreadable, contended error,
	change func(T) (next T, changed bool)) (T, error) {
	for range summarySwapTries {
		cur, version, err := readVersioned[T](ctx, st, concern, unreadable)
		if err != nil {
			return cur, err
		}
		next, changed := change(cur)
		if !changed {
			return next, nil
		}
		if applied, err := st.swapVersioned(ctx, concern, next, version, node); err != nil || applied {
			return next, err
		}
	}
	var zero T
	return zero, contended
}

package store

import (
	"cmp"
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
)

// Write is one statement with its values. Partition names the partition it touches
// (table + key); writes with the same non-empty Partition are sent as one unlogged
// batch, which the driver routes to that partition's replicas.
type Write struct {
	stmt      *cql.Statement
	Args      []any
	Partition string
	TS        int64 // client timestamp (µs), see Timestamp
}

// MaxBatch caps statements per single-partition batch (batch_size_warn_threshold).
const MaxBatch = 32

// Apply runs the writes with at most parallel groups in flight and returns the first
// error (the others are canceled). Every write is idempotent, so a failed Apply can be
// retried whole. A writer of many Apply calls at once shares one WritePool instead.
func (st *Store) Apply(ctx context.Context, writes []Write, parallel int) error {
	return st.NewWritePool(adaptive.Fixed(max(parallel, 1))).Apply(ctx, writes)
}

// outcome is what a group's error tells a limiter about the database's load.
func outcome(err error) adaptive.Outcome {
	switch cql.Classify(err) {
	case cql.ClassTimeout, cql.ClassOverloaded:
		return adaptive.Overloaded
	case cql.ClassCanceled:
		return adaptive.Ignored
	}
	return adaptive.Done
}

// MaxInFlight is the session's cap on statements in flight (CQL_MAX_IN_FLIGHT): the
// ceiling of a write limiter.
func (st *Store) MaxInFlight() int { return st.s.MaxInFlight() }

func (st *Store) applyGroup(ctx context.Context, group []Write) error {
	if len(group) == 1 {
		w := group[0]
		if err := st.s.Write(ctx, w.stmt, w.TS, w.Args...); err != nil {
			return fmt.Errorf("write %s: %w", cmp.Or(w.Partition, w.stmt.Table), err)
		}
		return nil
	}
	var b cql.Batch
	for _, w := range group {
		b.Add(w.stmt, w.Args...)
	}
	if err := st.s.WriteBatch(ctx, &b, group[0].TS); err != nil {
		return fmt.Errorf("batch of %d on %s: %w", len(group), group[0].Partition, err)
	}
	return nil
}

// groupWrites keeps the order of first appearance and splits each partition's writes
// into batches of at most MaxBatch that share one timestamp.
func groupWrites(writes []Write) [][]Write {
	type key struct {
		partition string
		ts        int64
	}
	var order []key
	byKey := map[key][]Write{}
	var out [][]Write
	for _, w := range writes {
		if w.Partition == "" {
			out = append(out, []Write{w})
			continue
		}
		k := key{w.Partition, w.TS}
		if _, seen := byKey[k]; !seen {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], w)
	}
	for _, k := range order {
		ws := byKey[k]
		for len(ws) > MaxBatch {
			out = append(out, ws[:MaxBatch])
			ws = ws[MaxBatch:]
		}
		out = append(out, ws)
	}
	return out
}

// Table is the table (or view) the write touches.
func (w Write) Table() string { return w.stmt.Table }

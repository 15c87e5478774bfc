package cql

import (
	"context"
	"sort"

	"github.com/scylladb/gocqlx/v2/table"
)

// What the package's tests read that production code does not.

// Models lists every table and view model, by name.
func Models() []*table.Table {
	out := make([]*table.Table, 0, len(models))
	for _, m := range models {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Model is the model of a table or view; nil when the schema has none of that name.
func Model(name string) *table.Table { return models[name] }

// MapPage reads one page of rows as maps (see MapRows and RecordPage).
func MapPage(ctx context.Context, s *Session, st *Statement, args []any, size int, state []byte) ([]map[string]any, []byte, error) {
	return selectRows(ctx, s, st, args, size, state, mapRows)
}

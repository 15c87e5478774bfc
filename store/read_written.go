package store

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A write's row read back by its primary key, and base rows and view rows with every
// column: what `indexer verify` (package verify) compares. Rows come as column -> value maps (gocql's
// MapScan types), because verify compares whole rows generically.

// Row is one row read back: column -> value.
type Row map[string]any

// WrittenRow reads the row write w writes (by the primary key values w binds): the
// columns w sets, or nil when no such row exists. ErrNotFound when no check exists for
// w's statement.
func (st *Store) WrittenRow(ctx context.Context, w Write) (Row, error) {
	chk := cql.RowCheck(w.stmt)
	if chk == nil {
		return nil, fmt.Errorf("%s: %w (no row check)", w.stmt.Name, ErrNotFound)
	}
	key, err := KeyArgs(w)
	if err != nil {
		return nil, err
	}
	return st.firstRow(ctx, chk, key)
}

// KeyArgs are the values w binds to its table's primary key columns, in key order.
func KeyArgs(w Write) ([]any, error) {
	return argsOf(w, cql.PrimaryKey(w.stmt.Table))
}

// WriteValues maps the columns w binds to the values it binds.
func WriteValues(w Write) Row {
	out := Row{}
	for i, c := range w.stmt.Columns {
		if c != "" && i < len(w.Args) {
			out[c] = w.Args[i]
		}
	}
	return out
}

func argsOf(w Write, cols []string) ([]any, error) {
	vals := WriteValues(w)
	out := make([]any, len(cols))
	for i, c := range cols {
		v, ok := vals[c]
		if !ok {
			return nil, fmt.Errorf("%s binds no %s", w.stmt.Name, c)
		}
		out[i] = v
	}
	return out, nil
}

// FullRow reads a base table's row with every column by its primary key values (in
// cql.PrimaryKey order); nil when absent.
func (st *Store) FullRow(ctx context.Context, table string, key []any) (Row, error) {
	return st.firstRow(ctx, cql.FullRow(table), key)
}

// viewRows reads the rows of a view select (cql.View.ByKey or MilestoneSlice) with every
// column.
func (st *Store) viewRows(ctx context.Context, stmt *cql.Statement, args []any) ([]Row, error) {
	rows, err := cql.MapRows(ctx, st.s, stmt, args)
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, err
}

func (st *Store) firstRow(ctx context.Context, stmt *cql.Statement, args []any) (Row, error) {
	rows, err := st.viewRows(ctx, stmt, args)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

package cql

import (
	"context"
	"fmt"

	"github.com/gocql/gocql"
)

// MaterializedView is one materialized view of the schema (migrations/cql) and the base table the
// node maintains it from: each write to Base costs the node a read-before-write and a
// view row written here when the view's key columns are set.
type MaterializedView struct {
	Name, Base string
	// Drop removes the view (the benchmarks of the views' cost use it on a keyspace
	// of their own; the schema always has every view).
	Drop string
	// Count counts the view's rows: a full scan, for a benchmark's small keyspace.
	Count string
}

// MaterializedViews are the schema's materialized views: the output tables' (OutputTable.Views),
// the legacy outputs' by address, transactions_by_state and parents_by_ms.
var MaterializedViews = func() []MaterializedView {
	var out []MaterializedView
	for _, t := range []OutputTable{BasicOutputs, AliasOutputs, FoundryOutputs, NFTOutputs} {
		for _, column := range t.Views {
			out = append(out, view(t.Table+"_by_"+column, t.Table))
		}
	}
	return append(out, view("legacy_outputs_by_address", "legacy_outputs"),
		view("transactions_by_state", "transactions"), view("parents_by_ms", "parents"))
}()

// view builds a view's statements; name is an identifier from the fixed lists above,
// never a value.
func view(name, base string) MaterializedView {
	return MaterializedView{Name: name, Base: base,
		Drop:  "DROP MATERIALIZED VIEW IF EXISTS " + name,
		Count: "SELECT COUNT(*) FROM " + name}
}

// DropViews drops every view of the keyspace of schema (a session from
// Config.SchemaSession, which waits for schema agreement), leaving the base tables.
func DropViews(ctx context.Context, schema *gocql.Session) error {
	for _, v := range MaterializedViews {
		if err := schema.Query(v.Drop).WithContext(ctx).Exec(); err != nil {
			return fmt.Errorf("drop view %s: %w", v.Name, err)
		}
	}
	return nil
}

// CountRows counts the rows of view v (a full scan: for small keyspaces).
func (s *Session) CountRows(ctx context.Context, v MaterializedView) (int64, error) {
	var n int64
	err := s.g.Query(v.Count).WithContext(ctx).Scan(&n)
	return n, err
}

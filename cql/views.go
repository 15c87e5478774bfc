package cql

// MaterializedView is one materialized view of the schema (migrations/cql) and the base
// table the node maintains it from: each write to Base costs the node a read-before-write
// and a view row written here when the view's key columns are set.
type MaterializedView struct{ Name, Base string }

// MaterializedViews are the schema's materialized views: the output tables' (OutputTable.Views),
// the legacy outputs' by address, transactions_by_state and parents_by_ms.
var MaterializedViews = func() []MaterializedView {
	var out []MaterializedView
	for _, t := range outputTables {
		for _, column := range t.Views {
			out = append(out, MaterializedView{t.Table + "_by_" + column, t.Table})
		}
	}
	return append(out, MaterializedView{"legacy_outputs_by_address", "legacy_outputs"},
		MaterializedView{"transactions_by_state", "transactions"}, MaterializedView{"parents_by_ms", "parents"})
}()

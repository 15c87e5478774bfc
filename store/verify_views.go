package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// View is a materialized view of a base table, as `indexer verify` compares it with the
// base rows: its name, base table, partition and primary key columns, and the base
// table's key columns it carries.
type View struct {
	Name, Base     string
	Partition, Key []string
	BaseKey        []string
	v              *cql.View
}

// ViewsOf is the views of a base table (none for a table without views).
func ViewsOf(table string) []View {
	var out []View
	for _, v := range cql.ViewsOf(table) {
		out = append(out, View{Name: v.Name, Base: v.Base, Partition: v.Partition, Key: v.Key, BaseKey: v.BaseKey, v: v})
	}
	return out
}

// HasViews reports whether table has views.
func HasViews(table string) bool { return len(cql.ViewsOf(table)) > 0 }

// HasMilestoneSlice reports whether the view's rows of one milestone in one partition can
// be read (ViewSliceRows).
func (v View) HasMilestoneSlice() bool { return v.v.MilestoneSlice != nil }

// ViewRowsByKey reads the view's rows of key (values of View.Key) with every column.
func (st *Store) ViewRowsByKey(ctx context.Context, v View, key []any) ([]Row, error) {
	return st.viewRows(ctx, v.v.ByKey, key)
}

// ViewSliceRows reads the view's rows of one partition and milestone with every column:
// args are the values of View.Partition, then ms_timestamp and milestone_index.
func (st *Store) ViewSliceRows(ctx context.Context, v View, args []any) ([]Row, error) {
	return st.viewRows(ctx, v.v.MilestoneSlice, args)
}

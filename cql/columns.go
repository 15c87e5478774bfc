package cql

import (
	"slices"

	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

// insert is an INSERT into m binding cols in order.
func insert(m *table.Table, cols ...string) *qb.InsertBuilder {
	return qb.Insert(m.Name()).Columns(cols...)
}

// ttlBind names the bound TTL of a write (USING TTL ?): rows written with one expire,
// so `indexer verify` does not read them back.
const ttlBind = "ttl"

// from is a select of m's rows whose columns in cols equal the values bound in order.
func from(m *table.Table, cols ...string) *qb.SelectBuilder {
	return qb.Select(m.Name()).Where(eq(cols...)...)
}

// eq compares each column of cols with a bound value.
func eq(cols ...string) []qb.Cmp {
	out := make([]qb.Cmp, len(cols))
	for i, c := range cols {
		out[i] = qb.Eq(c)
	}
	return out
}

// writeColumns names, for each value a write binds, the column of m it sets or selects
// by ("" for a value that is not a column, such as a TTL).
func writeColumns(m *table.Table, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if slices.Contains(m.Metadata().Columns, n) {
			out[i] = n
		}
	}
	return out
}

// join appends lists into a new one (never into a shared list's spare capacity).
func join(lists ...[]string) []string { return slices.Concat(lists...) }

// columnsOf is every column of m: its partition key, clustering key, then the others.
func columnsOf(m *table.Table) []string { return m.Metadata().Columns }

// get is a select of cols of the row of m whose primary key equals the values bound in
// key order.
func get(m *table.Table, cols ...string) *qb.SelectBuilder {
	return qb.Select(m.Name()).Columns(cols...).Where(m.PrimaryKeyCmp()...)
}

package cql

import (
	"slices"

	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

// The statements of the tables the store maps to records (see Statement.Columns) are
// defined from their column lists: the builder takes the list, so a statement names its
// table and its columns once.

// insert defines an INSERT into m binding cols in order.
func insert(m *table.Table, st Statement, cols []string) *Statement {
	st.Columns = cols
	return define(m, st, qb.Insert(m.Name()).Columns(cols...))
}

// ttlBind names the bound TTL of a write (USING TTL ?): rows written with one expire,
// so `indexer verify` does not read them back.
const ttlBind = "ttl"

// insertTTL defines an INSERT into m binding cols in order, then the row's TTL.
func insertTTL(m *table.Table, st Statement, cols []string) *Statement {
	st.Columns = cols
	return define(m, st, qb.Insert(m.Name()).Columns(cols...).TTLNamed(ttlBind))
}

// query defines a SELECT of cols; b is the select of its table with its WHERE, ORDER BY
// and LIMIT.
func query(m *table.Table, st Statement, cols []string, b *qb.SelectBuilder) *Statement {
	st.Columns = cols
	return define(m, st, b.Columns(cols...))
}

// from is a select of m's rows whose columns in cols equal the values bound in order.
func from(m *table.Table, cols ...string) *qb.SelectBuilder {
	return qb.Select(m.Name()).Where(eq(cols...)...)
}

// remove defines a DELETE from m of the rows whose key columns equal the values bound
// in order.
func remove(m *table.Table, st Statement, key []string) *Statement {
	st.Columns = key
	return define(m, st, qb.Delete(m.Name()).Where(eq(key...)...))
}

// eq compares each column of cols with a bound value.
func eq(cols ...string) []qb.Cmp {
	out := make([]qb.Cmp, len(cols))
	for i, c := range cols {
		out[i] = qb.Eq(c)
	}
	return out
}

// join appends lists into a new one (never into a shared list's spare capacity).
func join(lists ...[]string) []string { return slices.Concat(lists...) }

package cql

import (
	"slices"
	"strings"
)

// The statements of the tables the store maps to records (see Statement.Columns) are
// defined from their column lists: the text is built from the list, so a statement names
// its table and its columns once.

// insert defines an INSERT into st.Table binding cols in order; clause follows the
// values (" USING TTL ?").
func insert(st Statement, cols []string, clause string) *Statement {
	st.Kind, st.Columns = Insert, cols
	st.CQL = "INSERT INTO " + st.Table + " (" + list(cols) + ") VALUES (" + marks(cols) + ")" + clause
	return define(st)
}

// query defines a SELECT of cols from st.Table; cond is its WHERE clause.
func query(st Statement, cols []string, cond string) *Statement {
	st.Kind, st.Columns, st.CQL = Select, cols, "SELECT "+list(cols)+" FROM "+st.Table+" WHERE "+cond
	return define(st)
}

// remove defines a DELETE from st.Table of the rows whose key columns equal the values
// bound in order.
func remove(st Statement, key []string) *Statement {
	st.Kind, st.Columns, st.CQL = Delete, key, "DELETE FROM "+st.Table+" WHERE "+equal(key)
	return define(st)
}

// list is columns as CQL text: "a, b, c".
func list(cols []string) string { return strings.Join(cols, ", ") }

// marks is one bind marker per column: "?, ?, ?".
func marks(cols []string) string { return strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") }

// equal binds each column of cols with =: "a = ? AND b = ?".
func equal(cols []string) string { return strings.Join(cols, " = ? AND ") + " = ?" }

// join appends lists into a new one (never into a shared list's spare capacity).
func join(lists ...[]string) []string { return slices.Concat(lists...) }

// Package cql is the one place where CQL text lives: every select, insert, update and
// delete of the schema as a named statement with the access pattern it serves (the
// catalogue), plus the driver setup shared by the indexer, the API and the analytics.
package cql

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/scylladb/gocqlx/v2/table"
)

// Kind says what a statement does.
type Kind string

const (
	Select Kind = "select"
	Insert Kind = "insert"
	Update Kind = "update"
	Delete Kind = "delete"
)

// Statement is one named, prepared-once CQL statement. Values are always bound
// (never formatted into the text), so the driver prepares and caches it.
type Statement struct {
	Name    string // unique, e.g. "messages.by_id"
	Table   string // the table or view it reads or writes
	Kind    Kind
	CQL     string
	Pattern string // the access pattern it serves, as in a query catalogue
	// Provisional statements are kept valid and tested, but no reader uses them yet.
	Provisional bool
	// Idempotent statements may be retried after a timeout: every write of the indexer is,
	// because it carries a timestamp derived from chain order (see Session.Write).
	Idempotent bool
	// ServerTimestamp statements run by Exec take the coordinator's clock as their write
	// timestamp, not the client's: a client whose clock is off cannot order them wrongly.
	ServerTimestamp bool
	// Binds is the number of bind markers: a call with another number of values is refused
	// before it reaches the driver (gocql's token-aware routing panics on too few).
	Binds int
	// Names are the names of the values it binds, in bind order, as gocqlx's query
	// builder gives them: the column each value sets or compares with, or the name of
	// another value (ttl, limit, a tuple's from[0]).
	Names []string
	// Columns, on a write, name the column of its table each value sets or selects by, in
	// bind order ("" for a value that is no column, such as a TTL): the store binds a
	// record's fields by them, so the writer of a table follows its statement's builder.
	Columns []string
}

// builder is one of gocqlx's query builders (qb.Select, Insert, Update, Delete).
type builder interface {
	ToCql() (stmt string, names []string)
}

var catalogue = map[string]*Statement{}

// def registers the statement name, built by b on the table or view of model m and
// serving pattern, in the catalogue; names must be unique.
func def(m *table.Table, name, pattern string, b builder) *Statement {
	if _, dup := catalogue[name]; dup {
		panic(fmt.Sprintf("cql: duplicate statement %q", name))
	}
	st := &Statement{Name: name, Pattern: pattern, Table: m.Name(), Idempotent: true}
	st.CQL, st.Names = b.ToCql()
	st.Kind = Kind(strings.ToLower(strings.Fields(st.CQL)[0])) // SELECT, INSERT, UPDATE or DELETE
	st.CQL, st.Binds = strings.TrimSpace(st.CQL), len(st.Names)
	if st.Kind != Select {
		st.Columns = writeColumns(m, st.Names)
	}
	catalogue[name] = st
	return st
}

// provisional registers a statement no reader uses yet (see def).
func provisional(m *table.Table, name, pattern string, b builder) *Statement {
	st := def(m, name, pattern, b)
	st.Provisional = true
	return st
}

// serverTimestamp marks st to take the coordinator's clock (see Statement.ServerTimestamp).
func serverTimestamp(st *Statement) *Statement {
	st.ServerTimestamp = true
	return st
}

// lwt registers a lightweight-transaction statement: not idempotent, never retried blindly.
func lwt(m *table.Table, name, pattern string, b builder) *Statement {
	st := def(m, name, pattern, b)
	st.Idempotent = false
	return st
}

// Catalogue lists every statement, sorted by table then name.
func Catalogue() []*Statement {
	out := slices.Collect(maps.Values(catalogue))
	slices.SortFunc(out, func(a, b *Statement) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Name, b.Name))
	})
	return out
}

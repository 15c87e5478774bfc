// Package cql is the one place where CQL text lives: every select, insert, update and
// delete of the schema as a named statement with the access pattern it serves (the
// catalogue), plus the driver setup shared by the indexer, the API and the analytics.
package cql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/scylladb/gocqlx/v2/qb"
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
	InUse   bool   // false: provisional (kept valid and tested, not used by a reader yet)
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
	// Columns, on the statements of tables the store maps to records field by field, are
	// the columns a write binds (in bind order; values past them, such as a TTL, follow)
	// or a select returns (in scan order). The CQL text is built from the same list, so
	// the writer and the reader of a table follow one list: a new column is one edit here.
	Columns []string
}

// builder is one of gocqlx's query builders (qb.Select, Insert, Update, Delete).
type builder interface {
	ToCql() (stmt string, names []string)
}

var catalogue = map[string]*Statement{}

// define registers st, built by b on the table or view of model m, in the catalogue;
// names must be unique.
func define(m *table.Table, st Statement, b builder) *Statement {
	if _, dup := catalogue[st.Name]; dup {
		panic(fmt.Sprintf("cql: duplicate statement %q", st.Name))
	}
	st.Table, st.Kind, st.Idempotent = m.Name(), kindOf(b), true
	st.CQL, st.Names = b.ToCql()
	st.CQL, st.Binds = strings.TrimSpace(st.CQL), len(st.Names)
	catalogue[st.Name] = &st
	return &st
}

func kindOf(b builder) Kind {
	switch b.(type) {
	case *qb.InsertBuilder:
		return Insert
	case *qb.UpdateBuilder:
		return Update
	case *qb.DeleteBuilder:
		return Delete
	}
	return Select
}

// lwt registers a lightweight-transaction statement: not idempotent, never retried blindly.
func lwt(m *table.Table, st Statement, b builder) *Statement {
	p := define(m, st, b)
	p.Idempotent = false
	return p
}

// Catalogue lists every statement, sorted by table then name.
func Catalogue() []*Statement {
	out := make([]*Statement, 0, len(catalogue))
	for _, st := range catalogue {
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Name < out[j].Name
	})
	return out
}

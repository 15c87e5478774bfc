package store

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A record type (MessageRecord, TxRow, OutputRow, LegacyRow, TagRow, ChildRow, ...)
// names the column of each field in a `cql` tag. Its writer binds through those names,
// in the order its statement's builder binds them (Statement.Columns); its reader is
// scanned by the column names the node returns (cql.Records, RecordPage, GetRecord).
// Neither depends on a column's position: a new column is one edit in the model and one
// tag.

// binds lists a record's values (rec is a pointer to it) in the order st binds its
// columns (Statement.Columns), taking the values that are no column (a TTL) from extra.
func binds(st *cql.Statement, rec any, extra ...any) []any {
	field := fieldsOf(rec)
	args := make([]any, 0, len(st.Columns))
	for _, col := range st.Columns {
		if col == "" {
			args, extra = append(args, extra[0]), extra[1:]
			continue
		}
		args = append(args, bindValue(field(col)))
	}
	return args
}

// fieldsOf maps a column to a pointer to the record's field tagged with it.
func fieldsOf(rec any) func(column string) any {
	v := reflect.ValueOf(rec).Elem()
	index := columnIndex(v.Type())
	return func(col string) any {
		i, ok := index[col]
		if !ok {
			panic(fmt.Sprintf("store: %s has no field for column %s", v.Type(), col)) // a schema change it misses
		}
		return v.Field(i).Addr().Interface()
	}
}

var columnIndexes sync.Map // reflect.Type -> map[string]int

// columnIndex maps each column a record type's tags name to its field's index.
func columnIndex(t reflect.Type) map[string]int {
	if m, ok := columnIndexes.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		if col := t.Field(i).Tag.Get("cql"); col != "" {
			m[col] = i
		}
	}
	columnIndexes.Store(t, m)
	return m
}

// unset leaves a column untouched where nil would write a tombstone.
var unset = gocql.UnsetValue

// bindValue is the value a field (a pointer to it) binds: an absent one (empty text,
// nil pointer) binds as unset.
func bindValue(field any) any {
	v := reflect.ValueOf(field).Elem()
	switch {
	case v.Kind() == reflect.Pointer && v.IsNil(), v.Kind() == reflect.String && v.Len() == 0:
		return unset
	case v.Kind() == reflect.Pointer:
		return v.Elem().Interface()
	}
	return v.Interface()
}

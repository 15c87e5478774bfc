package cql

import (
	"context"

	"github.com/gocql/gocql"
	"github.com/scylladb/go-reflectx"
	"github.com/scylladb/gocqlx/v2"
)

// Records: the store's row types name the column of each field in a `cql` tag, and
// gocqlx's struct scanning fills them by the column names a select returns, so a reader
// depends on no column's position. A column without a field is an error (not a silent
// skip): a schema change the record misses is found by the first read.

// recordMapper maps a record's fields to the columns their `cql` tags name.
var recordMapper = reflectx.NewMapper("cql")

// records wraps a read's iterator in gocqlx's, which scans rows into records.
func records(it *gocql.Iter) *gocqlx.Iterx { return &gocqlx.Iterx{Iter: it, Mapper: recordMapper} }

// Records reads every row of a select into records of type T.
func Records[T any](ctx context.Context, s *Session, st *Statement, args []any) ([]T, error) {
	var out []T
	err := s.doArgs(ctx, st, len(args), func() error {
		it := records(s.read(ctx, st, args).Iter())
		out = scanRecords(it, out[:0])
		countRows(ctx, len(out))
		return it.Close()
	})
	return out, err
}

// RecordPage reads one page of at most size records starting at state (nil: the first
// page) and returns the paging state of the next page (empty at the end).
func RecordPage[T any](ctx context.Context, s *Session, st *Statement, args []any, size int, state []byte) ([]T, []byte, error) {
	var (
		out  []T
		next []byte
	)
	err := s.doArgs(ctx, st, len(args), func() error {
		it := records(s.read(ctx, st, args).PageSize(size).PageState(state).Iter())
		out = scanRecords(it, out[:0])
		countRows(ctx, len(out))
		next = it.PageState()
		return it.Close()
	})
	return out, next, err
}

// GetRecord reads the first row of a select into the record rec points to; gocql.ErrNotFound
// when there is none.
func GetRecord(ctx context.Context, s *Session, st *Statement, args []any, rec any) error {
	return s.doArgs(ctx, st, len(args), func() error {
		it := records(s.read(ctx, st, args).Iter())
		if !it.StructScan(rec) {
			if err := it.Close(); err != nil {
				return err
			}
			return gocql.ErrNotFound
		}
		countRows(ctx, 1)
		return it.Close()
	})
}

// scanRecords appends every row it has left to out.
func scanRecords[T any](it *gocqlx.Iterx, out []T) []T {
	for {
		var row T
		if !it.StructScan(&row) {
			return out
		}
		out = append(out, row)
	}
}

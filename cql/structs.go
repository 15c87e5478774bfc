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
// skip): a schema change the record misses is found by the first read. A select of one
// column may read into that column's type instead (int32, string, ...).

// recordMapper maps a record's fields to the columns their `cql` tags name.
var recordMapper = reflectx.NewMapper("cql")

// records wraps a read's iterator in gocqlx's, which scans rows into records.
func records(it *gocql.Iter) *gocqlx.Iterx { return &gocqlx.Iterx{Iter: it, Mapper: recordMapper} }

// Records reads every row of a select, all pages, into values of type T.
func Records[T any](ctx context.Context, s *Session, st *Statement, args []any) ([]T, error) {
	out, _, err := selectRows(ctx, s, st, args, 0, nil, selectInto[T])
	return out, err
}

// RecordPage reads one page of at most size rows starting at state (nil: the first
// page) into values of type T and returns the paging state of the next page (empty at
// the end).
func RecordPage[T any](ctx context.Context, s *Session, st *Statement, args []any, size int, state []byte) ([]T, []byte, error) {
	return selectRows(ctx, s, st, args, size, state, selectInto[T])
}

// MapRows reads every row of a select, all pages, as a map of column name to value (a
// null reads as its type's zero value): for readers that compare rows whatever their
// columns.
func MapRows(ctx context.Context, s *Session, st *Statement, args []any) ([]map[string]any, error) {
	out, _, err := selectRows(ctx, s, st, args, 0, nil, mapRows)
	return out, err
}

// selectRows runs a select, reading one page of size rows from state (size 0: every
// page), and scan reads its rows and closes the iterator.
func selectRows[T any](ctx context.Context, s *Session, st *Statement, args []any, size int, state []byte,
	scan func(*gocql.Iter) ([]T, error)) (out []T, next []byte, err error) {
	err = s.doArgs(ctx, st, len(args), func() error {
		q := s.read(ctx, st, args)
		if size > 0 {
			q = q.PageSize(size).PageState(state)
		}
		it := q.Iter()
		var err error
		out, err = scan(it)
		countRows(ctx, len(out))
		next = it.PageState()
		return err
	})
	return out, next, err
}

func selectInto[T any](it *gocql.Iter) ([]T, error) {
	var out []T
	err := records(it).Select(&out)
	return out, err
}

func mapRows(it *gocql.Iter) ([]map[string]any, error) {
	var out []map[string]any
	for row := map[string]any{}; it.MapScan(row); row = map[string]any{} {
		out = append(out, row)
	}
	return out, it.Close()
}

// GetRecord reads the first row of a select into the record rec points to; gocql.ErrNotFound
// when there is none.
func GetRecord(ctx context.Context, s *Session, st *Statement, args []any, rec any) error {
	return s.doArgs(ctx, st, len(args), func() error {
		err := records(s.read(ctx, st, args).Iter()).Get(rec)
		if err == nil {
			countRows(ctx, 1)
		}
		return err
	})
}

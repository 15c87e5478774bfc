package cql_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// node is the shared session on the test keyspace.
type node struct {
	s    *cql.Session
	cfg  cql.Config
	used *sync.Map // names of the statements the round trips ran
}

// use records that a round trip ran these statements.
func (n node) use(sts ...*cql.Statement) {
	for _, st := range sts {
		n.used.Store(st.Name, true)
	}
}

// scan is Session.Scan.
func (n node) scan(st *cql.Statement, args []any, dest ...any) error {
	n.use(st)
	return n.s.Scan(context.Background(), st, args, dest...)
}

// row is one result row with values normalised by norm, so that rows read through
// MapScan compare with rows built in a test.
type row map[string]any

// chainBase is the timestamp of milestone 0 in these tests; milestones are 10 s apart.
var chainBase = time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)

// msTime is the (ms_timestamp) time of milestone ms.
func msTime(ms int) time.Time { return chainBase.Add(time.Duration(ms) * 10 * time.Second) }

// chainTS is the client timestamp (µs) of the step-th write made for milestone ms: it
// follows chain order, not the wall clock, as the indexer's writes do.
func chainTS(ms, step int) int64 { return msTime(ms).UnixMicro() + int64(step) }

func (n node) write(t *testing.T, st *cql.Statement, ts int64, args ...any) {
	t.Helper()
	n.use(st)
	if err := n.s.Write(context.Background(), st, ts, args...); err != nil {
		t.Fatalf("write: %v", err)
	}
}

func (n node) exec(t *testing.T, st *cql.Statement, args ...any) {
	t.Helper()
	n.use(st)
	if err := n.s.Exec(context.Background(), st, args...); err != nil {
		t.Fatalf("exec: %v", err)
	}
}

// cas runs a lightweight transaction and fails the test on an error; current is the
// row the node returned when it did not apply.
func (n node) cas(t *testing.T, st *cql.Statement, args ...any) (applied bool, current row) {
	t.Helper()
	n.use(st)
	applied, cur, err := n.s.CAS(context.Background(), st, args...)
	if err != nil {
		t.Fatalf("cas: %v", err)
	}
	return applied, normRow(cur)
}

// normMaps normalises the maps cql.MapRows and MapPage read.
func normMaps(ms []map[string]any) []row {
	out := make([]row, len(ms))
	for i, m := range ms {
		out[i] = normRow(m)
	}
	return out
}

// rows reads every row of st (cql.MapRows).
func (n node) rows(t *testing.T, st *cql.Statement, args ...any) []row {
	t.Helper()
	n.use(st)
	out, err := cql.MapRows(context.Background(), n.s, st, args)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return normMaps(out)
}

// pages reads every row of st with cql.MapPage, size rows a page, and counts the pages.
func (n node) pages(t *testing.T, st *cql.Statement, size int, args ...any) (out []row, pages int) {
	t.Helper()
	n.use(st)
	var state []byte
	for pages = 1; ; pages++ {
		maps, next, err := cql.MapPage(context.Background(), n.s, st, args, size, state)
		page := normMaps(maps)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if len(page) > size {
			t.Errorf("page %d has %d rows, want <= %d", pages, len(page), size)
		}
		out = append(out, page...)
		if len(next) == 0 || pages > 100 {
			return out, pages
		}
		state = next
	}
}

// expect compares rows read from a table (written synchronously) with want.
func (n node) expect(t *testing.T, st *cql.Statement, want []row, args ...any) {
	t.Helper()
	if got := n.rows(t, st, args...); !sameRows(got, want) {
		t.Errorf("%s%v:\n got  %v\n want %v", st.Name, args, got, normRows(want))
	}
}

// eventually is expect for materialized views, which the node updates after the base
// write: it retries for up to 5 s before failing.
func (n node) eventually(t *testing.T, st *cql.Statement, want []row, args ...any) {
	t.Helper()
	var got []row
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = n.rows(t, st, args...); sameRows(got, want) {
			return
		}
	}
	t.Errorf("%s%v after 5s:\n got  %v\n want %v", st.Name, args, got, normRows(want))
}

// ttl runs a test-only select of one TTL(column) value.
func (n node) ttl(t *testing.T, query string, args ...any) int {
	t.Helper()
	var ttl int
	if err := n.s.Gocql().Query(query, args...).Scan(&ttl); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return ttl
}

func mustNotFound(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, gocql.ErrNotFound) {
		t.Errorf("got %v, want gocql.ErrNotFound", err)
	}
}

// norm maps a value to a comparable form: every integer to int64, times to Unix
// milliseconds (the precision of timestamp), blobs to strings (nil and empty alike).
func norm(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case time.Time:
		return x.UnixMilli()
	case []byte:
		return string(x)
	}
	return v
}

func normRow(r map[string]any) row {
	out := row{}
	for k, v := range r {
		out[k] = norm(v)
	}
	return out
}

func normRows(rs []row) []row {
	out := make([]row, len(rs))
	for i, r := range rs {
		out[i] = normRow(r)
	}
	return out
}

func sameRows(got, want []row) bool {
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	return reflect.DeepEqual(normRows(got), normRows(want))
}

// with returns a copy of r with some columns changed.
func (r row) with(kv ...any) row {
	out := row{}
	for k, v := range r {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// zip names values by columns.
func zip(cols []string, vals []any) row {
	r := row{}
	for i, c := range cols {
		r[c] = vals[i]
	}
	return r
}

package testcontainers

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Dump reads every row of every table and view in a keyspace into sorted strings, one
// slice per table: two keyspaces hold the same data exactly when their dumps are equal.
// Write timestamps are not part of a row; skip names tables left out (e.g. "leases").
func Dump(ctx context.Context, s *gocql.Session, keyspace string, skip ...string) (map[string][]string, error) {
	tables, err := tableNames(ctx, s, keyspace)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, t := range tables {
		if slices.Contains(skip, t) {
			continue
		}
		rows, err := dumpTable(ctx, s, keyspace, t)
		if err != nil {
			return nil, fmt.Errorf("dump %s: %w", t, err)
		}
		out[t] = rows
	}
	return out, nil
}

func tableNames(ctx context.Context, s *gocql.Session, keyspace string) ([]string, error) {
	var names []string
	for _, q := range []string{
		`SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?`,
		`SELECT view_name FROM system_schema.views WHERE keyspace_name = ?`,
	} {
		it := s.Query(q, keyspace).WithContext(ctx).Iter()
		var n string
		for it.Scan(&n) {
			names = append(names, n)
		}
		if err := it.Close(); err != nil {
			return nil, err
		}
	}
	sort.Strings(names)
	return names, nil
}

// dumpTable renders each row as "col=value ..." in column-name order. The keyspace and
// table names come from system_schema, not from input.
func dumpTable(ctx context.Context, s *gocql.Session, keyspace, table string) ([]string, error) {
	it := s.Query(fmt.Sprintf("SELECT * FROM %s.%s", keyspace, table)).WithContext(ctx).PageSize(5000).Iter()
	var rows []string
	for {
		row := map[string]any{}
		if !it.MapScan(row) {
			break
		}
		rows = append(rows, renderRow(row))
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	sort.Strings(rows)
	return rows, nil
}

func renderRow(row map[string]any) string {
	cols := make([]string, 0, len(row))
	for c := range row {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	var b strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&b, "%s=%v ", c, deref(row[c]))
	}
	return b.String()
}

func deref(v any) any {
	switch x := v.(type) {
	case []byte:
		return fmt.Sprintf("%x", x)
	case gocql.UUID:
		return x.String()
	}
	return v
}

// DiffDumps describes the first differences between two dumps ("" when equal).
func DiffDumps(a, b map[string][]string) string {
	var out []string
	for t := range union(a, b) {
		ra, rb := a[t], b[t]
		if len(ra) != len(rb) {
			out = append(out, fmt.Sprintf("%s: %d rows vs %d", t, len(ra), len(rb)))
			continue
		}
		for i := range ra {
			if ra[i] != rb[i] {
				out = append(out, fmt.Sprintf("%s: row %d differs:\n  %s\n  %s", t, i, ra[i], rb[i]))
				break
			}
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func union(a, b map[string][]string) map[string]struct{} {
	u := map[string]struct{}{}
	for k := range a {
		u[k] = struct{}{}
	}
	for k := range b {
		u[k] = struct{}{}
	}
	return u
}

// AssertSameData fails t unless the keyspaces of a and b hold the same rows in every
// table and view but skip, and returns how many rows they hold.
func AssertSameData(t testing.TB, a, b cql.Config, skip ...string) int {
	t.Helper()
	ctx := context.Background()
	da, err := Dump(ctx, Session(t, a).Gocql(), a.Keyspace, skip...)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Dump(ctx, Session(t, b).Gocql(), b.Keyspace, skip...)
	if err != nil {
		t.Fatal(err)
	}
	if diff := DiffDumps(da, db); diff != "" {
		t.Fatalf("%s differs from %s:\n%s", a.Keyspace, b.Keyspace, diff)
	}
	rows := 0
	for _, r := range da {
		rows += len(r)
	}
	t.Logf("%d tables and views, %d rows, identical", len(da), rows)
	return rows
}

package cql_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testVerifyStatements round-trips the statements of `indexer verify`: each write with a
// row check writes a row of synthesized values and its check reads back exactly the
// columns it bound (a delete's check then finds nothing); each view's base row, view row
// and milestone slice are read after a write of its base table.
func testVerifyStatements(t *testing.T, n node) {
	types := map[string]map[string]string{}
	typeOf := func(table, col string) string {
		if types[table] == nil {
			types[table] = columnTypes(t, n, table)
		}
		return types[table][col]
	}
	for _, st := range cql.Catalogue() {
		chk := cql.RowCheck(st)
		if chk == nil {
			continue
		}
		cols := st.Columns
		args := make([]any, len(cols))
		for i, c := range cols {
			args[i] = synth(typeOf(st.Table, c), c)
		}
		n.write(t, st, time.Now().UnixMicro(), args...)
		key := pick(cols, args, cql.PrimaryKey(st.Table))
		got := n.rows(t, chk, key...)
		if st.Kind == cql.Delete {
			if len(got) != 0 {
				t.Errorf("%s: row %v after the delete", chk.Name, got)
			}
			continue
		}
		want := row{}
		for i, c := range cols {
			if c != "" && !slices.Contains(cql.PrimaryKey(st.Table), c) {
				want[c] = args[i]
			}
		}
		if len(want) == 0 { // a write of key columns only: its check reads the first back
			first := cql.PrimaryKey(st.Table)[0]
			want[first] = pick(cols, args, []string{first})[0]
		}
		if !sameRows(got, []row{want}) {
			t.Errorf("%s%v:\n got  %v\n want %v", chk.Name, key, got, normRow(want))
		}
	}
	for _, base := range []string{"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs", "parents", "transactions"} {
		testVerifyViews(t, n, base)
	}
}

// testVerifyViews reads a base row of a fresh write back whole, and each view's row of it.
func testVerifyViews(t *testing.T, n node, base string) {
	types := columnTypes(t, n, base)
	full := n.rows(t, cql.FullRow(base), verifyKey(t, n, base, types)...)
	if len(full) != 1 {
		t.Fatalf("%s: %d base rows", cql.FullRow(base).Name, len(full))
	}
	for _, v := range cql.ViewsOf(base) {
		key := make([]any, len(v.Key))
		for i, c := range v.Key {
			key[i] = synth(types[c], c)
		}
		var got []row
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(got) == 0; time.Sleep(50 * time.Millisecond) {
			got = n.rows(t, v.ByKey, key...)
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0]["message_id"], full[0]["message_id"]) {
			t.Errorf("%s: %v, want the base row %v", v.ByKey.Name, got, full[0])
		}
		if v.MilestoneSlice != nil {
			slice := append(key[:len(v.Partition):len(v.Partition)], synth("timestamp", "ms_timestamp"), synth("int", "milestone_index"))
			if got := n.rows(t, v.MilestoneSlice, slice...); len(got) != 1 {
				t.Errorf("%s: %d rows, want 1", v.MilestoneSlice.Name, len(got))
			}
		}
	}
}

// verifyKey writes a base row of synthesized values with every column and returns its key.
func verifyKey(t *testing.T, n node, table string, types map[string]string) []any {
	var ins *cql.Statement
	for _, st := range cql.Catalogue() {
		if st.Table == table && st.Kind == cql.Insert && cql.RowCheck(st) != nil && (ins == nil || len(st.CQL) > len(ins.CQL)) {
			ins = st
		}
	}
	cols := ins.Columns
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = synth(types[c], c)
	}
	n.write(t, ins, time.Now().UnixMicro(), args...)
	return pick(cols, args, cql.PrimaryKey(table))
}

// columnTypes reads a table's column types from the schema.
func columnTypes(t *testing.T, n node, table string) map[string]string {
	it := n.s.Gocql().Query("SELECT column_name, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?",
		n.cfg.Keyspace, table).Iter()
	out := map[string]string{}
	var c, ty string
	for it.Scan(&c, &ty) {
		out[c] = ty
	}
	if err := it.Close(); err != nil || len(out) == 0 {
		t.Fatalf("columns of %s: %v (%d)", table, err, len(out))
	}
	return out
}

// synth is a value of a CQL type, distinct from the other subtests' keys.
func synth(typ, col string) any {
	switch {
	case typ == "text":
		return "vfy-" + col
	case typ == "int":
		return int32(700007)
	case typ == "tinyint":
		return int8(2)
	case typ == "smallint":
		return int16(7)
	case typ == "bigint":
		return int64(700011)
	case typ == "timestamp":
		return chainBase.Add(7 * time.Hour)
	case typ == "date":
		return chainBase.Add(7 * 24 * time.Hour).Truncate(24 * time.Hour)
	case typ == "blob":
		return []byte{7, 7}
	case typ == "boolean":
		return true
	case strings.Contains(typ, "map<text, bigint>"):
		return map[string]int64{"vfy-" + col: 700013}
	case strings.Contains(typ, "<text>"):
		return []string{"vfy-a", "vfy-b"}
	}
	panic("synth: type " + typ + " of " + col)
}

// pick returns the values bound to cols.
func pick(bound []string, args []any, cols []string) []any {
	out := make([]any, len(cols))
	for i, c := range cols {
		for j, b := range bound {
			if b == c {
				out[i] = args[j]
			}
		}
	}
	return out
}

package verify_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// TestViewRowsDisagreeingWithTheirBase makes a view disagree with its base table in the
// three ways verify tells apart: a view row deleted, one changed, one extra. Cassandra
// keeps a materialized view in step with its base table and refuses writes to it, so the
// test first turns the view into a plain table with the same name, columns, key and rows
// (what a view that lost updates looks like to a reader), then damages it with CQL.
func TestViewRowsDisagreeingWithTheirBase(t *testing.T) {
	const n, view = 12, "basic_outputs_by_address"
	st, cfg := ingestedCfg(t, n)
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Fatalf("not clean before the damage: %+v", found)
	}
	rows := viewAsTable(t, st, cfg.Keyspace, view)
	if len(rows) < 3 {
		t.Fatalf("%s holds %d rows, want at least 3", view, len(rows))
	}
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Fatalf("the view turned into a table is not clean: %+v", found)
	}
	deleted, changed, copied := rows[0], rows[len(rows)/2], rows[len(rows)-1]
	q := func(format string, args ...any) { storetest.Rows(t, st, fmt.Sprintf(format, args...)) }
	q("DELETE FROM %s WHERE %s", view, viewKey(deleted))
	q("UPDATE %s SET amount = %d WHERE %s", view, int64(changed["amount"].(float64))+1, viewKey(changed))
	extra := map[string]any{}
	for k, v := range copied {
		extra[k] = v
	}
	extra["output_id"] = "0x" + strings.Repeat("ee", 34)
	q("INSERT INTO %s JSON '%s'", view, jsonText(t, extra))

	_, found := run(t, st, 1, n, false)
	for _, f := range found {
		t.Logf("found: %+v", f)
	}
	wants := []struct {
		kind     string
		outputID any
		col      string
	}{
		{verify.KindViewMissing, deleted["output_id"], ""},
		{verify.KindViewDiffers, changed["output_id"], "amount"},
		{verify.KindViewOrphan, extra["output_id"], ""},
	}
	for _, w := range wants {
		if !foundViewRow(found, view, w.kind, w.outputID, w.col) {
			t.Errorf("not found: %s of %s output %v", w.kind, view, w.outputID)
		}
	}
	// The changed row may be found once per milestone that wrote its base row (created,
	// then spent): every finding is about a damaged row, none about another.
	damaged := map[string]bool{}
	for _, w := range wants {
		damaged[fmt.Sprint(w.outputID)] = true
	}
	for _, f := range found {
		if f.Table != view || !damaged[fmt.Sprint(f.Key["output_id"])] {
			t.Errorf("found what was not damaged: %+v", f)
		}
	}
}

// foundViewRow: found holds a finding of kind in view about the output, naming col (if
// set) among the columns that differ.
func foundViewRow(found []verify.Discrepancy, view, kind string, outputID any, col string) bool {
	for _, f := range found {
		if f.Kind != kind || f.Table != view || fmt.Sprint(f.Key["output_id"]) != fmt.Sprint(outputID) {
			continue
		}
		if _, named := f.Differs[col]; col == "" || named {
			return true
		}
	}
	return false
}

// viewAsTable replaces a materialized view by a table of the same name, columns, primary
// key and clustering order holding the same rows, and returns those rows (as
// SELECT JSON gives them: timestamps as text, numbers as float64).
func viewAsTable(t *testing.T, st *store.Store, keyspace, view string) []map[string]any {
	t.Helper()
	cols := storetest.Rows(t, st, fmt.Sprintf(`SELECT column_name, type, kind, position, clustering_order
		FROM system_schema.columns WHERE keyspace_name = '%s' AND table_name = '%s'`, keyspace, view))
	var rows []map[string]any
	for _, r := range storetest.Rows(t, st, "SELECT JSON * FROM "+view) {
		row := map[string]any{}
		if err := json.Unmarshal([]byte(r["[json]"].(string)), &row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	storetest.Rows(t, st, "DROP MATERIALIZED VIEW "+view)
	storetest.Rows(t, st, fmt.Sprintf("CREATE TABLE %s (%s)%s", view, tableColumns(cols), clusteringOrder(cols)))
	for _, row := range rows {
		storetest.Rows(t, st, fmt.Sprintf("INSERT INTO %s JSON '%s'", view, jsonText(t, row)))
	}
	return rows
}

// tableColumns is the column list and primary key of a table with the columns cols (rows
// of system_schema.columns).
func tableColumns(cols []map[string]any) string {
	var defs []string
	partition, clustering := keyColumns(cols, "partition_key"), keyColumns(cols, "clustering")
	for _, c := range cols {
		defs = append(defs, fmt.Sprintf("%s %s", c["column_name"], c["type"]))
	}
	key := "(" + strings.Join(partition, ", ") + ")"
	if len(clustering) > 0 {
		key += ", " + strings.Join(clustering, ", ")
	}
	return strings.Join(defs, ", ") + ", PRIMARY KEY (" + key + ")"
}

// keyColumns are the columns of a kind in key order.
func keyColumns(cols []map[string]any, kind string) []string {
	var out []string
	for _, c := range cols {
		if c["kind"] == kind {
			out = append(out, "")
		}
	}
	for _, c := range cols {
		if c["kind"] == kind {
			out[c["position"].(int)] = c["column_name"].(string)
		}
	}
	return out
}

func clusteringOrder(cols []map[string]any) string {
	order := map[string]string{}
	for _, c := range cols {
		order[fmt.Sprint(c["column_name"])] = strings.ToUpper(fmt.Sprint(c["clustering_order"]))
	}
	var parts []string
	for _, name := range keyColumns(cols, "clustering") {
		parts = append(parts, name+" "+order[name])
	}
	if len(parts) == 0 {
		return ""
	}
	return " WITH CLUSTERING ORDER BY (" + strings.Join(parts, ", ") + ")"
}

// viewKey is the WHERE clause of a basic_outputs_by_address row by its whole key.
func viewKey(r map[string]any) string {
	ts, err := time.Parse("2006-01-02 15:04:05.000Z", r["ms_timestamp"].(string))
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("address = '%s' AND ms_range_id = %v AND ms_timestamp = %d AND milestone_index = %v AND output_id = '%s'",
		r["address"], r["ms_range_id"], ts.UnixMilli(), r["milestone_index"], r["output_id"])
}

// jsonText is a row as the text of a CQL string literal for INSERT ... JSON.
func jsonText(t *testing.T, row map[string]any) string {
	t.Helper()
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "'", "''")
}

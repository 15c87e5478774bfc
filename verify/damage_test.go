package verify_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// damage is one change made directly with CQL, and the finding it must produce.
type damage struct {
	cql   string
	kind  string
	table string
	key   map[string]any // columns of the finding's key that must match
	col   string         // for "differs": the column that must be named
}

// TestDamageFoundAndRepaired damages a verified chain with CQL, as a crash or an
// operator could, and checks that verify names each damage, that -repair fixes it and
// that verify is clean afterwards.
func TestDamageFoundAndRepaired(t *testing.T) {
	const n = 12
	st := ingested(t, n)
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Fatalf("not clean before the damage: %+v", found)
	}
	q := func(format string, args ...any) []map[string]any {
		return storetest.Rows(t, st, fmt.Sprintf(format, args...))
	}
	msgs := q("SELECT message_id FROM messages_by_milestone WHERE milestone_index = 8")
	unspent := q("SELECT output_id FROM unspent_outputs WHERE output_kind = 'basic' AND ms_range_id = 1 LIMIT 3")
	hint := q("SELECT address, output_kind, variant, ms_range_id FROM addresses_hints WHERE address = '%s' LIMIT 1",
		q("SELECT address FROM basic_outputs WHERE output_id = '%s'", unspent[0]["output_id"])[0]["address"])
	if len(msgs) < 2 || len(unspent) < 3 || len(hint) < 1 {
		t.Fatalf("sim chain too small: %d messages, %d unspent, %d hints", len(msgs), len(unspent), len(hint))
	}
	lost, out0, out1, out2 := msgs[1]["message_id"], unspent[0]["output_id"], unspent[1]["output_id"], unspent[2]["output_id"]
	h := hint[0]
	damages := []damage{
		{cql: fmt.Sprintf("DELETE FROM messages WHERE message_id = '%s'", lost),
			kind: verify.KindMissing, table: "messages", key: map[string]any{"message_id": lost}},
		{cql: fmt.Sprintf("DELETE FROM unspent_outputs WHERE output_kind = 'basic' AND ms_range_id = 1 AND created_at = %d AND output_id = '%s'",
			createdAt(t, st, out0), out0),
			kind: verify.KindMissing, table: "unspent_outputs", key: map[string]any{"output_id": out0}},
		{cql: baseUpdate(t, st, out1, "amount = 1"),
			kind: verify.KindDiffers, table: "basic_outputs", key: map[string]any{"output_id": out1}, col: "amount"},
		// A change of a view's key column: the view follows the base row, the base row is wrong.
		{cql: baseUpdate(t, st, out2, "address = 'sim1damaged'"),
			kind: verify.KindDiffers, table: "basic_outputs", key: map[string]any{"output_id": out2}, col: "address"},
		{cql: fmt.Sprintf("DELETE FROM addresses_hints WHERE address = '%s' AND output_kind = '%s' AND variant = '%s' AND ms_range_id = %d",
			h["address"], h["output_kind"], h["variant"], h["ms_range_id"]),
			kind: verify.KindMissing, table: "addresses_hints", key: map[string]any{"address": h["address"], "variant": h["variant"]}},
	}
	for _, d := range damages {
		q("%s", d.cql)
	}

	sum, found := run(t, st, 1, n, true)
	for _, d := range damages {
		if !foundDamage(found, d) {
			t.Errorf("not found: %s %s %v (%s)", d.kind, d.table, d.key, d.cql)
		}
	}
	for _, f := range found {
		t.Logf("found: %+v", f)
	}
	t.Logf("repair: %+v", sum)
	if len(sum.Reingest) != 1 || sum.Reingest[0] != 8 {
		t.Errorf("re-ingestion marked for %v, want [8] (the milestone whose message bytes are gone)", sum.Reingest)
	}
	synced, err := st.Synced(context.Background(), 1, n)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := synced[8]; ok || len(synced) != n-1 {
		t.Errorf("after repair, synced %v: want every milestone but 8", synced)
	}
	if sum, found := run(t, st, 1, n, false); len(found) > 0 || sum.Milestones != n-1 {
		t.Errorf("after repair: %d milestones checked, found %+v", sum.Milestones, found)
	}
	if got := q("SELECT output_id FROM basic_outputs_by_address WHERE address = 'sim1damaged' AND ms_range_id = 1"); len(got) != 0 {
		t.Errorf("view still holds the damaged base row's key after repair: %v", got)
	}
}

func foundDamage(found []verify.Discrepancy, d damage) bool {
	for _, f := range found {
		if f.Kind != d.kind || f.Table != d.table {
			continue
		}
		match := true
		for k, v := range d.key {
			if fmt.Sprint(f.Key[k]) != fmt.Sprint(v) {
				match = false
			}
		}
		if _, named := f.Differs[d.col]; match && (d.col == "" || named) && f.Repair != "" {
			return true
		}
	}
	return false
}

// createdAt is the created_at of an output's unspent row (ms_range_id 1).
func createdAt(t *testing.T, st *store.Store, id any) int64 {
	rows := storetest.Rows(t, st, fmt.Sprintf("SELECT created_at, output_id FROM unspent_outputs WHERE output_kind = 'basic' AND ms_range_id = 1"))
	for _, r := range rows {
		if r["output_id"] == id {
			return r["created_at"].(int64)
		}
	}
	t.Fatalf("no unspent row of %v", id)
	return 0
}

// baseUpdate is an UPDATE of a basic output's row (at the wall clock, as any CQL client).
func baseUpdate(t *testing.T, st *store.Store, id any, set string) string {
	r := storetest.Rows(t, st, fmt.Sprintf("SELECT ms_range_id, milestone_index, ms_timestamp FROM basic_outputs WHERE output_id = '%s'", id))[0]
	return fmt.Sprintf("UPDATE basic_outputs SET %s WHERE output_id = '%s' AND ms_range_id = %d AND milestone_index = %d AND ms_timestamp = %d",
		set, id, r["ms_range_id"], r["milestone_index"], r["ms_timestamp"].(interface{ UnixMilli() int64 }).UnixMilli())
}

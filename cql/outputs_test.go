package cql_test

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// outputTables are every output table of cql.Outputs; the test fails if one is added
// to the catalogue and not here.
var outputTables = []cql.OutputTable{cql.BasicOutputs, cql.AliasOutputs, cql.FoundryOutputs, cql.NFTOutputs}

const pendingTTL = 86400

func testOutputTables(t *testing.T, n node) {
	if len(cql.Outputs) != len(outputTables) {
		t.Fatalf("cql.Outputs has %d tables, this test knows %d", len(cql.Outputs), len(outputTables))
	}
	for _, tab := range outputTables {
		sts := cql.Outputs[tab.Table]
		if sts == nil {
			t.Fatalf("cql.Outputs has no %s", tab.Table)
		}
		t.Run(tab.Table, func(t *testing.T) {
			t.Parallel()
			testOutputTable(t, n, tab, sts)
		})
	}
}

// outputRow builds one row of tab: its key, chain-output output_id, milestone and
// time, and for every other text column (address, sender, tag, ...) a value shared by
// all rows of the table, so that its rows meet in one partition of each view.
func outputRow(tab cql.OutputTable, key string, rng, ms int, at time.Time) row {
	r := row{"spent_by": "", "spent_milestone_index": 0}
	for _, c := range tab.Columns {
		switch c {
		case tab.Key:
			r[c] = key
		case "output_id":
			r[c] = key + "-output"
		case "ms_range_id":
			r[c] = rng
		case "milestone_index", "state_index":
			r[c] = ms
		case "ms_timestamp":
			r[c] = at
		case "inclusion_state":
			r[c] = int8(1)
		case "amount":
			r[c] = int64(ms) * 1_000_000
		case "message_id":
			r[c] = "msg-" + key
		case "data":
			r[c] = []byte(key + "-bytes")
		default:
			r[c] = c + "@" + tab.Table
		}
	}
	return r
}

// args lists r's values in the order the table's insert statements bind them.
func (r row) args(cols []string) []any {
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = r[c]
	}
	return out
}

func testOutputTable(t *testing.T, n node, tab cql.OutputTable, sts *cql.OutputStatements) {
	if !sameKeys(sts.ByView, tab.Views) || !sameKeys(sts.ByViewTime, tab.Views) {
		t.Fatalf("ByView/ByViewTime do not cover the views %v", tab.Views)
	}
	const rng = 5
	pending := outputRow(tab, "k1", cql.PendingRange, 501, msTime(500).Add(3*time.Second))
	k1 := outputRow(tab, "k1", rng, 501, msTime(501))
	k2 := outputRow(tab, "k2", rng, 502, msTime(502))

	// k1 seen in an unreferenced message: pending partition, expiring.
	n.write(t, sts.InsertPending, chainTS(500, 3), append(pending.args(tab.Columns), pendingTTL)...)
	ttl := n.ttl(t, "SELECT TTL(data) FROM "+tab.Table+" WHERE "+tab.Key+" = ? AND ms_range_id = ?", "k1", cql.PendingRange)
	if ttl <= 0 || ttl > pendingTTL {
		t.Errorf("pending row TTL %d, want in (0, %d]", ttl, pendingTTL)
	}
	n.expect(t, sts.ByKey, []row{pending}, "k1")
	for _, v := range tab.Views {
		n.eventually(t, sts.ByView[v], []row{pending}, pending[v], cql.PendingRange)
	}

	// Milestones 501 and 502 confirm k1 and k2; k1's pending rows go.
	n.write(t, sts.Insert, chainTS(501, 1), k1.args(tab.Columns)...)
	n.write(t, sts.Insert, chainTS(502, 1), k2.args(tab.Columns)...)
	n.write(t, sts.DeletePending, chainTS(501, 2), "k1", cql.PendingRange)
	n.expect(t, sts.ByKey, []row{k1}, "k1")

	// Milestone 503 spends k1.
	key := []any{"k1", rng, 501, msTime(501)}
	if tab.HasOutputID {
		key = append(key, k1["output_id"])
	}
	n.write(t, sts.MarkSpent, chainTS(503, 1), append([]any{"tx-spender", 503}, key...)...)
	spent := k1.with("spent_by", "tx-spender", "spent_milestone_index", 503)
	n.expect(t, sts.ByKey, []row{spent}, "k1")

	for _, v := range tab.Views {
		val := k1[v]
		n.eventually(t, sts.ByView[v], []row{k2, spent}, val, rng)
		n.eventually(t, sts.ByView[v], nil, val, cql.PendingRange)
		n.expect(t, sts.ByViewTime[v], []row{spent}, val, rng, msTime(501), msTime(502))
		n.expect(t, sts.ByViewTime[v], []row{k2, spent}, val, rng, msTime(501), msTime(503))
		if got, pages := n.pages(t, sts.ByView[v], 1, val, rng); !sameRows(got, []row{k2, spent}) || pages < 2 {
			t.Errorf("%s paged by 1: %d pages, %v", sts.ByView[v].Name, pages, got)
		}
	}
}

func sameKeys(m map[string]*cql.Statement, keys []string) bool {
	if len(m) != len(keys) {
		return false
	}
	for _, k := range keys {
		if m[k] == nil {
			return false
		}
	}
	return true
}

var legacyColumns = []string{"output_id", "output_type", "is_used", "ms_range_id", "milestone_index", "ms_timestamp",
	"inclusion_state", "message_id", "amount", "address", "data"}

func testLegacyOutputs(t *testing.T, n node) {
	const id, addr, rng = "legacy-out", "legacy-address", 3
	unused := zip(legacyColumns, []any{id, int8(0), false, rng, 301, msTime(301), int8(1), "msg-legacy",
		int64(1_000_000), addr, []byte("legacy-bytes")})
	n.write(t, cql.InsertLegacyOutput, chainTS(301, 1), unused.args(legacyColumns)...)
	n.expect(t, cql.LegacyOutputByID, []row{unused}, id)
	n.eventually(t, cql.LegacyOutputsByAddress, []row{unused}, addr, rng)

	// Spent: the unused row is deleted and the used row written in one batch.
	used := unused.with("is_used", true)
	var b cql.Batch
	b.Add(cql.DeleteLegacyOutput, id, int8(0), false, rng, 301, msTime(301))
	b.Add(cql.InsertLegacyOutput, used.args(legacyColumns)...)
	n.use(cql.DeleteLegacyOutput, cql.InsertLegacyOutput)
	if err := n.s.WriteBatch(context.Background(), &b, chainTS(310, 1)); err != nil {
		t.Fatalf("spend batch: %v", err)
	}
	n.expect(t, cql.LegacyOutputByID, []row{used}, id)
	n.eventually(t, cql.LegacyOutputsByAddress, []row{used}, addr, rng)
}

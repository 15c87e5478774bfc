package cql_test

import (
	"maps"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testLedgerFamilies: a milestone's delta row reads back whole and a rewrite is one row;
// an address's balance at a milestone is its newest row at or before it, none before its
// first, and another address's rows stay apart.
func testLedgerFamilies(t *testing.T, n node) {
	figures := map[string]int64{"ledger_outputs.basic.count": 2, "ledger_outputs.basic.amount": -5}
	balances := map[string]int64{"smr1-a": 7, "smr1-b": -7}
	n.write(t, cql.InsertLedgerDelta, chainTS(20, 0), 0, 20, figures, balances)
	n.write(t, cql.InsertLedgerDelta, chainTS(20, 0), 0, 20, figures, balances)
	got := n.rows(t, cql.LedgerDelta, 0, 20)
	if len(got) != 1 || !maps.Equal(got[0]["figures"].(map[string]int64), figures) ||
		!maps.Equal(got[0]["balances"].(map[string]int64), balances) {
		t.Fatalf("delta row of 20: %v", got)
	}
	for _, ms := range []int{10, 14, 18} {
		n.write(t, cql.InsertAddressBalance, chainTS(ms, 0), "smr1-a", ms, int64(ms*100))
	}
	n.write(t, cql.InsertAddressBalance, chainTS(15, 0), "smr1-b", 15, int64(1))
	for _, c := range []struct{ at, want int }{{16, 1400}, {14, 1400}, {30, 1800}, {10, 1000}} {
		rows := n.rows(t, cql.AddressBalanceAt, "smr1-a", c.at)
		if len(rows) != 1 || rows[0]["balance"] != int64(c.want) {
			t.Errorf("balance of smr1-a at %d: %v, want %d", c.at, rows, c.want)
		}
	}
	if rows := n.rows(t, cql.AddressBalanceAt, "smr1-a", 9); len(rows) != 0 {
		t.Errorf("balance of smr1-a before its first row: %v, want none", rows)
	}
}

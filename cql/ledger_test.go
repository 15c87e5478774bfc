package cql_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// unspentRow is a full unspent_outputs row: key, owner and filter columns in the
// statement's column order.
func unspentRow(kind string, rng int, at int64, id, owner string, amount int64) []any {
	return []any{kind, rng, at, id, 900, amount, 2, owner, "sdr-addr", int64(5), int64(100), int64(200), "exp-addr",
		"sender-addr", "0x7461", "issuer-addr", "", "", "chain-1"}
}

// asRow maps the values a write binds to its columns, as a read of every column
// returns them.
func asRow(st *cql.Statement, vals []any) row {
	r := row{}
	for i, c := range st.Columns {
		r[c] = vals[i]
	}
	return r
}

func testUnspent(t *testing.T, n node) {
	const kind, rng = "basic", 7
	a := unspentRow(kind, rng, 1000, "0xaa", "owner-1", 10)
	b := unspentRow(kind, rng, 1000, "0xbb", "owner-1", 20)
	c := unspentRow(kind, rng, 1001, "0x01", "owner-2", 30)
	for i, r := range [][]any{c, b, a} {
		n.write(t, cql.InsertUnspent, chainTS(900, i), r...)
	}
	all := []row{asRow(cql.InsertUnspent, a), asRow(cql.InsertUnspent, b), asRow(cql.InsertUnspent, c)}
	n.expect(t, cql.UnspentPages.ByKind, all, kind, rng, int64(0), "", int64(math.MaxInt64), "")
	// A cursor names the first row of the next page (inclusive); createdBefore excludes.
	n.expect(t, cql.UnspentPages.ByKind, all[1:2], kind, rng, int64(1000), "0xbb", int64(1001), "")
	newest := []row{asRow(cql.InsertUnspent, c), asRow(cql.InsertUnspent, b), asRow(cql.InsertUnspent, a)}
	n.expect(t, cql.UnspentPages.ByKindNewest, newest, kind, rng, int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.UnspentPages.ByKindNewest, newest[1:], kind, rng, int64(0), "", int64(1000), "0xbc")

	// Spent in a later milestone: its delete wins even when it arrived first.
	n.write(t, cql.DeleteUnspent, chainTS(905, 3), kind, rng, int64(1000), "0xaa")
	n.write(t, cql.InsertUnspent, chainTS(900, 0), a...)
	n.expect(t, cql.UnspentPages.ByKind, all[1:], kind, rng, int64(0), "", int64(math.MaxInt64), "")
}

// carried are what a by-address ledger row carries of its output, which the filter
// reads leave out.
var carried = []string{"output_data", "message_id", "spent_by"}

// filterRow is r without what the by-address rows carry of their output.
func filterRow(r row) row {
	out := row{}
	for c, v := range r {
		if !slices.Contains(carried, c) {
			out[c] = v
		}
	}
	return out
}

func testUnspentByAddress(t *testing.T, n node) {
	const addr, rng = "smr1-unspent", 3
	key := func(role string, at int64, id string) []any { return []any{addr, rng, "nft", role, at, id} }
	owned := append(key("address", 50, "0x02"), unspentRow("", 0, 0, "", "owner-x", 7)[4:]...)
	owned = append(owned, []byte{3, 1, 2}, "0xb1")
	sent := append(key("sender", 40, "0x01"), owned[6:]...)
	n.write(t, cql.InsertUnspentByAddress, chainTS(300, 1), owned...)
	n.write(t, cql.InsertUnspentByAddress, chainTS(300, 2), sent...)
	n.expect(t, cql.UnspentPages.ByAddress, []row{filterRow(asRow(cql.InsertUnspentByAddress, owned))},
		addr, rng, "nft", "address", int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.UnspentPages.ByAddressOutputs, []row{asRow(cql.InsertUnspentByAddress, owned)},
		addr, rng, "nft", "address", int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.UnspentPages.ByAddress, nil, addr, rng, "nft", "address", int64(51), "", int64(math.MaxInt64), "")
	n.expect(t, cql.UnspentPages.ByAddressNewest, []row{filterRow(asRow(cql.InsertUnspentByAddress, sent))},
		addr, rng, "nft", "sender", int64(0), "", int64(math.MaxInt64), "")
	n.write(t, cql.DeleteUnspentByAddress, chainTS(301, 3), key("sender", 40, "0x01")...)
	n.expect(t, cql.UnspentPages.ByAddress, nil, addr, rng, "nft", "sender", int64(0), "", int64(math.MaxInt64), "")
}

func testAddressUpdates(t *testing.T, n node) {
	const addr, rng = "smr1-history", 2
	update := func(ms int, id string, spent bool) []any {
		return []any{addr, rng, ms, id, spent, msTime(ms), "basic", []string{"address", "sender"}, int64(ms)}
	}
	rows := [][]any{update(20, "0x01", false), update(21, "0x01", true), update(21, "0x02", false)}
	for i, r := range rows {
		n.write(t, cql.InsertAddressUpdate, chainTS(20, i), r...)
	}
	asRows := func(rs ...[]any) []row {
		var out []row
		for _, r := range rs {
			x := asRow(cql.InsertAddressUpdate, r)
			x["roles"] = []string{"address", "sender"}
			out = append(out, x)
		}
		return out
	}
	n.expect(t, cql.AddressUpdatesNewest, asRows(rows[1], rows[2], rows[0]), addr, rng, 0, 100)
	n.expect(t, cql.AddressUpdatesOldest, asRows(rows[0], rows[2], rows[1]), addr, rng, 0, 100)
	n.expect(t, cql.AddressUpdatesNewest, asRows(rows[0]), addr, rng, 20, 20)
}

func testMilestoneUpdates(t *testing.T, n node) {
	created := []any{77, false, "0x0a", "basic", int64(5), "smr1-a"}
	consumed := []any{77, true, "0x09", "nft", int64(6), "smr1-b"}
	n.write(t, cql.InsertMilestoneUpdate, chainTS(77, 2), created...)
	n.write(t, cql.InsertMilestoneUpdate, chainTS(77, 3), consumed...)
	n.expect(t, cql.MilestoneUpdates, []row{asRow(cql.InsertMilestoneUpdate, created), asRow(cql.InsertMilestoneUpdate, consumed)}, 77)

	n.write(t, cql.InsertMilestoneID, chainTS(77, 1), "0xmilestone77", 77)
	n.expect(t, cql.MilestoneIndexByID, []row{{"milestone_index": 77}}, "0xmilestone77")
	n.expect(t, cql.MilestoneIndexByID, nil, "0xother")
}

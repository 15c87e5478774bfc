package cql_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testOutputsBooked: the by_booking select of each output table finds the rows of a key
// booked in one milestone (with their spend), and nothing in another milestone.
func testOutputsBooked(t *testing.T, n node) {
	if len(cql.OutputsBooked) != len(outputTables) {
		t.Fatalf("cql.OutputsBooked has %d tables, this test knows %d", len(cql.OutputsBooked), len(outputTables))
	}
	for _, tab := range outputTables {
		t.Run(tab.Table, func(t *testing.T) {
			t.Parallel()
			const rng = 7
			sts, booked := cql.Outputs[tab.Table], cql.OutputsBooked[tab.Table]
			b1 := outputRow(tab, "booked-1", rng, 701, msTime(701))
			b2 := outputRow(tab, "booked-1", rng, 702, msTime(702))
			if tab.HasOutputID {
				b2["output_id"] = "booked-1-output-2"
			}
			n.write(t, sts.Insert, chainTS(701, 1), b1.args(tab.Columns)...)
			n.write(t, sts.Insert, chainTS(702, 1), b2.args(tab.Columns)...)
			key := []any{"booked-1", rng, 701, msTime(701)}
			if tab.HasOutputID {
				key = append(key, b1["output_id"])
			}
			n.write(t, sts.MarkSpent, chainTS(703, 1), append([]any{"tx-booked", 703}, key...)...)
			n.expect(t, booked, []row{b1.with("spent_by", "tx-booked", "spent_milestone_index", 703)}, "booked-1", rng, 701)
			n.expect(t, booked, []row{b2}, "booked-1", rng, 702)
			n.expect(t, booked, nil, "booked-1", rng, 703)
		})
	}
}

// testTransactionOutputRows: the output rows of one output, with their milestone and
// state, and neither its unlock rows nor another output's rows.
func testTransactionOutputRows(t *testing.T, n node) {
	const tx = "tx-output-rows"
	args := func(idx int16, variant, msg string, ms int) []any {
		return []any{tx, idx, variant, msg, []byte(variant + msg), int32(ms), int8(2)}
	}
	n.write(t, cql.InsertTransactionRow, chainTS(801, 1), args(1, "output", "msg-a", 801)...)
	n.write(t, cql.InsertTransactionRow, chainTS(801, 1), args(1, "unlock", "msg-b", 802)...)
	n.write(t, cql.InsertTransactionRow, chainTS(801, 1), args(2, "output", "msg-a", 801)...)
	want := []row{{"message_id": "msg-a", "data": []byte("outputmsg-a"), "inclusion_state": int8(2), "milestone_index": 801}}
	n.expect(t, cql.TransactionOutputRows, want, tx, int16(1), "output")
	n.expect(t, cql.TransactionOutputRows, nil, tx, int16(3), "output")
}

package cql_test

import (
	"cmp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func testMessages(t *testing.T, n node) {
	const id = "msg-roundtrip"
	parents := []string{"parent-a", "parent-b"}
	raw := []byte{0x02, 0xca, 0xfe}
	seen := msTime(100).Add(time.Second)
	n.write(t, cql.InsertUnreferencedMessage, chainTS(100, 1), id, int8(2), raw, "transaction", parents, 101, seen)
	unref := row{"message_id": id, "variant": "transaction", "parents": parents, "is_solid": false,
		"milestone_index": 0, "inclusion_state": 0, "should_promote": false, "should_reattach": false,
		"conflict_reason": 0, "white_flag_index": 0, "est_milestone_index": 101, "seen_at": seen}
	n.expect(t, cql.MessageMetadata, []row{unref}, id)
	pending := []row{{"est_milestone_index": 101, "seen_at": seen}}
	n.expect(t, cql.MessagePending, pending, id)

	// Referenced by milestone 102: its fields replace the unreferenced ones; the
	// estimate and the time seen, which the referenced insert does not write, stay.
	n.write(t, cql.InsertReferencedMessage, chainTS(102, 7), id, int8(2), raw, "transaction", parents,
		102, 7, int8(1), int8(3))
	ref := unref.with("is_solid", true, "milestone_index", 102, "white_flag_index", 7, "inclusion_state", 1,
		"conflict_reason", 3)
	n.expect(t, cql.MessageMetadata, []row{ref}, id)
	n.expect(t, cql.MessageFull, []row{ref.with("version", 2, "message", raw, "proof", []byte(nil))}, id)
	n.expect(t, cql.MessageRaw, []row{{"message": raw}}, id)
	n.expect(t, cql.MessagePending, pending, id)

	var got []byte
	mustNotFound(t, n.scan(cql.MessageRaw, []any{"msg-missing"}, &got))
}

func testMessagesByMilestone(t *testing.T, n node) {
	// Written out of white-flag order, read back in it.
	for i, wf := range []int{2, 0, 1} {
		n.write(t, cql.InsertMessageByMilestone, chainTS(110, i), 110, wf, "msg-wf-"+string(rune('a'+wf)))
	}
	n.write(t, cql.InsertMessageByMilestone, chainTS(111, 0), 111, 0, "msg-other-milestone")
	n.expect(t, cql.MessagesByMilestone, []row{
		{"white_flag_index": 0, "message_id": "msg-wf-a"},
		{"white_flag_index": 1, "message_id": "msg-wf-b"},
		{"white_flag_index": 2, "message_id": "msg-wf-c"},
	}, 110)
}

func testMilestones(t *testing.T, n node) {
	// The next milestone (here written first) names the message carrying milestone 120;
	// null columns read back as zero values.
	n.write(t, cql.SetMilestoneMessage, chainTS(121, 0), "msg-ms-120", 120)
	n.expect(t, cql.MilestoneByIndex, []row{{"message_id": "msg-ms-120", "milestone_id": "", "timestamp": int64(0), "payload": []byte{}}}, 120)
	n.write(t, cql.InsertMilestone, chainTS(120, 0), 120, "ms-id-120", msTime(120).Unix(), []byte("payload"))
	n.expect(t, cql.MilestoneByIndex, []row{
		{"message_id": "msg-ms-120", "milestone_id": "ms-id-120", "timestamp": msTime(120).Unix(), "payload": []byte("payload")},
	}, 120)
	n.write(t, cql.InsertMilestone, chainTS(122, 0), 122, "ms-id-122", msTime(122).Unix(), []byte("payload"))
	n.expect(t, cql.MilestoneByIndex, []row{{"message_id": "", "milestone_id": "ms-id-122", "timestamp": msTime(122).Unix(), "payload": []byte("payload")}}, 122)
	n.expect(t, cql.MilestoneByIndex, nil, 121)

	// The full scan that fills the buckets of an older keyspace sees both rows (other
	// subtests write milestones of their own at the same time: only these are checked).
	var scanned []row
	for _, r := range n.rows(t, cql.AllMilestones) {
		if i := r["milestone_index"]; i == int64(120) || i == int64(122) {
			scanned = append(scanned, r)
		}
	}
	slices.SortFunc(scanned, func(a, b row) int { return cmp.Compare(a["milestone_index"].(int64), b["milestone_index"].(int64)) })
	if want := []row{
		{"milestone_index": 120, "message_id": "msg-ms-120", "milestone_id": "ms-id-120", "timestamp": msTime(120).Unix()},
		{"milestone_index": 122, "message_id": "", "milestone_id": "ms-id-122", "timestamp": msTime(122).Unix()},
	}; !sameRows(scanned, want) {
		t.Errorf("milestones.all, milestones 120 and 122:\n got  %v\n want %v", scanned, want)
	}
}

// testMilestoneBuckets: the list rows of milestones 999-1001 (two buckets), the message
// ID of 999 set by the next milestone, read back newest first by bucket and range.
func testMilestoneBuckets(t *testing.T, n node) {
	n.write(t, cql.InsertMilestoneInBucket, chainTS(999, 0), 0, 999, "ms-999", msTime(999).Unix())
	n.write(t, cql.InsertMilestoneInBucket, chainTS(1000, 0), 1, 1000, "ms-1000", msTime(1000).Unix())
	n.write(t, cql.InsertMilestoneInBucket, chainTS(1001, 0), 1, 1001, "ms-1001", msTime(1001).Unix())
	n.write(t, cql.SetMilestoneMessageInBucket, chainTS(1000, 0), "msg-999", 0, 999)
	ms := func(i int, msg string) row {
		return row{"milestone_index": i, "message_id": msg, "milestone_id": "ms-" + strconv.Itoa(i), "timestamp": msTime(i).Unix()}
	}
	n.expect(t, cql.MilestonesInBucket, []row{ms(999, "msg-999")}, 0, 0, 1001)
	n.expect(t, cql.MilestonesInBucket, []row{ms(1001, ""), ms(1000, "")}, 1, 0, 1001) // newest first
	n.expect(t, cql.MilestonesInBucket, []row{ms(1000, "")}, 1, 1000, 1000)
}

func testTransactions(t *testing.T, n node) {
	const tx, pendingTx = "tx-roundtrip", "tx-unreferenced"
	// Seen before a milestone referenced it (no inclusion_state yet).
	n.write(t, cql.InsertUnreferencedTransactionRow, chainTS(200, 1), tx, int16(0), "output", "msg-incl", []byte("out0"), 201)
	n.write(t, cql.InsertUnreferencedTransactionRow, chainTS(200, 2), pendingTx, int16(0), "output", "msg-p", []byte("o"), 201)
	// Milestone 201: the including message's rows and a conflicting message's output;
	// milestone 205: the unlock that spent output 0 (stored under the spent output's key).
	n.write(t, cql.InsertTransactionRow, chainTS(201, 1), tx, int16(0), "input", "msg-incl", []byte("in0"), 201, int8(1))
	n.write(t, cql.InsertTransactionRow, chainTS(201, 2), tx, int16(0), "output", "msg-incl", []byte("out0"), 201, int8(1))
	n.write(t, cql.InsertTransactionRow, chainTS(201, 3), tx, int16(0), "output", "msg-conflict", []byte("out0"), 201, int8(2))
	n.write(t, cql.InsertTransactionRow, chainTS(201, 4), tx, int16(0), "input", "msg-conflict", []byte("in0"), 201, int8(2))
	n.write(t, cql.InsertTransactionRow, chainTS(205, 1), tx, int16(0), "unlock", "msg-spend", []byte("spent-by"), 205, int8(1))

	in0 := row{"idx": 0, "variant": "input", "message_id": "msg-incl", "data": "in0", "inclusion_state": 1, "milestone_index": 201}
	out0 := in0.with("variant", "output", "data", "out0")
	conflict := out0.with("message_id", "msg-conflict", "inclusion_state", 2)
	unlock := in0.with("variant", "unlock", "message_id", "msg-spend", "data", "spent-by", "milestone_index", 205)
	conflictIn := in0.with("message_id", "msg-conflict", "inclusion_state", 2)
	n.expect(t, cql.TransactionRows, []row{conflictIn, in0, conflict, out0, unlock}, tx) // clustering: idx, variant, message_id

	short := func(r row) row {
		return row{"variant": r["variant"], "message_id": r["message_id"], "data": r["data"], "inclusion_state": r["inclusion_state"]}
	}
	n.expect(t, cql.TransactionOutputAndUnlock, []row{short(conflict), short(out0), short(unlock)}, tx, int16(0))
	n.expect(t, cql.TransactionOutputAndUnlock, nil, tx, int16(1))

	// transactions_by_state (view): the message that included the transaction, by state,
	// found through the transaction's own input 0 (never an unlock filed under its ID).
	n.eventually(t, cql.IncludedMessage, []row{{"message_id": "msg-incl"}}, tx, int8(1), int16(0), "input")
	n.eventually(t, cql.IncludedMessage, []row{{"message_id": "msg-conflict"}}, tx, int8(2), int16(0), "input")
	n.expect(t, cql.IncludedMessage, nil, pendingTx, int8(1), int16(0), "input")
}

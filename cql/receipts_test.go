package cql_test

import (
	"strconv"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testReceipts: receipts list by migrated_at then milestone index; a migrated_at slice
// holds only its own; writing a row again leaves one row.
func testReceipts(t *testing.T, n node) {
	const shard = cql.ReceiptShard
	n.write(t, cql.InsertReceipt, chainTS(12, 0), shard, 900, 12, "ms-12", []byte("r12"))
	n.write(t, cql.InsertReceipt, chainTS(10, 0), shard, 900, 10, "ms-10", []byte("r10"))
	n.write(t, cql.InsertReceipt, chainTS(11, 0), shard, 899, 11, "ms-11", []byte("r11"))
	n.write(t, cql.InsertReceipt, chainTS(12, 0), shard, 900, 12, "ms-12", []byte("r12"))
	receipt := func(at, index int) row {
		return row{"migrated_at": at, "milestone_index": index, "milestone_id": "ms-" + strconv.Itoa(index), "receipt": "r" + strconv.Itoa(index)}
	}
	n.expect(t, cql.AllReceipts, []row{receipt(899, 11), receipt(900, 10), receipt(900, 12)}, shard)
	n.expect(t, cql.ReceiptsMigratedAt, []row{receipt(900, 10), receipt(900, 12)}, shard, 900)
	n.expect(t, cql.ReceiptsMigratedAt, nil, shard, 901)
}

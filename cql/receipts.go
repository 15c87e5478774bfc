package cql

// ReceiptShard is the receipts table's one partition: receipts are few.
const ReceiptShard = 0

// receiptColumns are the columns the receipt reads return, in scan order.
var receiptColumns = []string{"migrated_at", "milestone_index", "milestone_id", "receipt"}

// Receipts (migration 000011, docs/schema.md D26): the receipt milestone options, all in
// the partition ReceiptShard.
var (
	InsertReceipt = def(receipts, "receipts.insert", "record the receipt a confirmed milestone carries",
		receipts.InsertBuilder())
	AllReceipts = def(receipts, "receipts.all", "list every receipt, by migrated_at then milestone index",
		receipts.SelectBuilder(receiptColumns...))
	ReceiptsMigratedAt = def(receipts, "receipts.migrated_at",
		"list the receipts of the funds migrated at one legacy milestone",
		from(receipts, "shard", "migrated_at").Columns(receiptColumns...))
)

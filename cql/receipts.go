package cql

// ReceiptShard is the receipts table's one partition: receipts are few.
const ReceiptShard = 0

// receiptColumns are the columns the receipt reads return, in scan order.
var receiptColumns = []string{"migrated_at", "milestone_index", "milestone_id", "receipt"}

// Receipts (migration 000011, docs/schema.md D26): the receipt milestone options, all in
// the partition ReceiptShard.
var (
	InsertReceipt = define(receipts, Statement{Name: "receipts.insert", InUse: true,
		Pattern: "record the receipt a confirmed milestone carries"},
		receipts.InsertBuilder())
	AllReceipts = define(receipts, Statement{Name: "receipts.all", InUse: true,
		Pattern: "list every receipt, by migrated_at then milestone index"},
		receipts.SelectBuilder(receiptColumns...))
	ReceiptsMigratedAt = define(receipts, Statement{Name: "receipts.migrated_at", InUse: true,
		Pattern: "list the receipts of the funds migrated at one legacy milestone"},
		from(receipts, "shard", "migrated_at").Columns(receiptColumns...))
)

package cql

// ReceiptShard is the receipts table's one partition: receipts are few.
const ReceiptShard = 0

// Receipts (migration 000011, docs/schema.md D26): the receipt milestone options, all in
// the partition ReceiptShard.
var (
	InsertReceipt = define(Statement{Name: "receipts.insert", Table: "receipts", Kind: Insert, InUse: true,
		Pattern: "record the receipt a confirmed milestone carries",
		CQL: `INSERT INTO receipts (shard, migrated_at, milestone_index, milestone_id, receipt)
			VALUES (?, ?, ?, ?, ?)`})
	AllReceipts = define(Statement{Name: "receipts.all", Table: "receipts", Kind: Select, InUse: true,
		Pattern: "list every receipt, by migrated_at then milestone index",
		CQL:     `SELECT migrated_at, milestone_index, milestone_id, receipt FROM receipts WHERE shard = ?`})
	ReceiptsMigratedAt = define(Statement{Name: "receipts.migrated_at", Table: "receipts", Kind: Select, InUse: true,
		Pattern: "list the receipts of the funds migrated at one legacy milestone",
		CQL: `SELECT migrated_at, milestone_index, milestone_id, receipt FROM receipts
			WHERE shard = ? AND migrated_at = ?`})
)

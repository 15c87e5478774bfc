package cql

// Ledger analytics (migration 000009, docs/explorer-api.md): the richest addresses and
// the token distribution of the unspent set at a ledger index, written by the analytics
// worker and read by the explorer routes. A rewrite of a ledger index first deletes its
// partition (with an older client timestamp than the rows that follow).

var (
	richestColumns      = []string{"ledger_index", "rank", "address", "balance"}
	distributionColumns = []string{"ledger_index", "magnitude", "address_count", "total_balance"}
)

var (
	InsertRichest = insert(Statement{Name: "richest_addresses.insert", Table: "richest_addresses", InUse: true,
		Pattern: "store one ranked address of a ledger index's richest list"}, richestColumns, "")
	DeleteRichest = remove(Statement{Name: "richest_addresses.delete", Table: "richest_addresses", InUse: true,
		Pattern: "clear a ledger index's richest list before it is rewritten"}, richestColumns[:1])
	RichestTop = query(Statement{Name: "richest_addresses.top", Table: "richest_addresses", InUse: true,
		Pattern: "read the first N ranks of a ledger index's richest list"}, richestColumns, "ledger_index = ? LIMIT ?")

	InsertDistribution = insert(Statement{Name: "token_distribution.insert", Table: "token_distribution", InUse: true,
		Pattern: "store one order of magnitude of a ledger index's token distribution"}, distributionColumns, "")
	DeleteDistribution = remove(Statement{Name: "token_distribution.delete", Table: "token_distribution", InUse: true,
		Pattern: "clear a ledger index's token distribution before it is rewritten"}, distributionColumns[:1])
	Distribution = query(Statement{Name: "token_distribution.by_ledger_index", Table: "token_distribution", InUse: true,
		Pattern: "read a ledger index's token distribution, smallest magnitude first"}, distributionColumns,
		"ledger_index = ?")
)

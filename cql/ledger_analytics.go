package cql

// Ledger analytics (migration 000009, docs/explorer-api.md): the richest addresses and
// the token distribution of the unspent set at a ledger index, written by the analytics
// worker and read by the explorer routes. A rewrite of a ledger index first deletes its
// partition (with an older client timestamp than the rows that follow).

var (
	richestColumns      = richest.Metadata().Columns
	distributionColumns = distribution.Metadata().Columns
)

var (
	InsertRichest = insert(richest, Statement{Name: "richest_addresses.insert", InUse: true,
		Pattern: "store one ranked address of a ledger index's richest list"}, richestColumns)
	DeleteRichest = remove(richest, Statement{Name: "richest_addresses.delete", InUse: true,
		Pattern: "clear a ledger index's richest list before it is rewritten"}, richestColumns[:1])
	RichestTop = query(richest, Statement{Name: "richest_addresses.top", InUse: true,
		Pattern: "read the first N ranks of a ledger index's richest list"}, richestColumns,
		richest.SelectBuilder().LimitNamed("limit"))

	InsertDistribution = insert(distribution, Statement{Name: "token_distribution.insert", InUse: true,
		Pattern: "store one order of magnitude of a ledger index's token distribution"}, distributionColumns)
	DeleteDistribution = remove(distribution, Statement{Name: "token_distribution.delete", InUse: true,
		Pattern: "clear a ledger index's token distribution before it is rewritten"}, distributionColumns[:1])
	Distribution = query(distribution, Statement{Name: "token_distribution.by_ledger_index", InUse: true,
		Pattern: "read a ledger index's token distribution, smallest magnitude first"}, distributionColumns,
		distribution.SelectBuilder())
)

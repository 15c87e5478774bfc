package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Ledger analytics (migration 000009, docs/explorer-api.md): the richest addresses and
// the token distribution of the unspent set at a ledger index, written by the analytics
// worker and read by the explorer routes. A rewrite of a ledger index first deletes its
// partition (with an older client timestamp than the rows that follow).
var (
	InsertRichest = def(richest, "richest_addresses.insert",
		"store one ranked address of a ledger index's richest list", richest.InsertBuilder())
	DeleteRichest = def(richest, "richest_addresses.delete",
		"clear a ledger index's richest list before it is rewritten",
		qb.Delete(richest.Name()).Where(qb.Eq("ledger_index")))
	RichestTop = def(richest, "richest_addresses.top", "read the first N ranks of a ledger index's richest list",
		richest.SelectBuilder(columnsOf(richest)...).LimitNamed("limit"))

	InsertDistribution = def(distribution, "token_distribution.insert",
		"store one order of magnitude of a ledger index's token distribution", distribution.InsertBuilder())
	DeleteDistribution = def(distribution, "token_distribution.delete",
		"clear a ledger index's token distribution before it is rewritten",
		qb.Delete(distribution.Name()).Where(qb.Eq("ledger_index")))
	Distribution = def(distribution, "token_distribution.by_ledger_index",
		"read a ledger index's token distribution, smallest magnitude first",
		distribution.SelectBuilder(columnsOf(distribution)...))
)

package cql

// The ledger families' fold (migration 000013, docs/analytics.md): each milestone's
// ledger deltas, written with its rows, and each owning address's balance after the
// milestones that changed it, written by the analytics worker's fold.
var (
	deltaColumns   = []string{"ms_range_id", "milestone_index", "figures", "balances"}
	balanceColumns = []string{"address", "milestone_index", "balance"}
)

var (
	InsertLedgerDelta = insert(Statement{Name: "ledger_family_deltas.insert", Table: "ledger_family_deltas", InUse: true,
		Pattern: "record what one milestone changed in the ledger families"}, deltaColumns, "")
	LedgerDelta = query(Statement{Name: "ledger_family_deltas.by_milestone", Table: "ledger_family_deltas", InUse: true,
		Pattern: "read one milestone's ledger family deltas"}, deltaColumns[2:],
		"ms_range_id = ? AND milestone_index = ?")

	InsertAddressBalance = insert(Statement{Name: "address_balances.insert", Table: "address_balances", InUse: true,
		Pattern: "record an owning address's balance after a milestone that changed it"}, balanceColumns, "")
	AddressBalanceAt = query(Statement{Name: "address_balances.at", Table: "address_balances", InUse: true,
		Pattern: "read an address's balance at a milestone: its newest row at or before it"}, balanceColumns[1:],
		"address = ? AND milestone_index <= ? LIMIT 1")
)

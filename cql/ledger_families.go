package cql

import "github.com/scylladb/gocqlx/v2/qb"

// The ledger families' fold (migration 000013, docs/analytics.md): each milestone's
// ledger deltas, written with its rows, and each owning address's balance after the
// milestones that changed it, written by the analytics worker's fold.
var (
	deltaColumns   = ledgerDeltas.Metadata().Columns
	balanceColumns = addressBals.Metadata().Columns
)

var (
	InsertLedgerDelta = insert(ledgerDeltas, Statement{Name: "ledger_family_deltas.insert", InUse: true,
		Pattern: "record what one milestone changed in the ledger families"}, deltaColumns)
	LedgerDelta = query(ledgerDeltas, Statement{Name: "ledger_family_deltas.by_milestone", InUse: true,
		Pattern: "read one milestone's ledger family deltas"}, deltaColumns[2:],
		from(ledgerDeltas, "ms_range_id", "milestone_index"))

	InsertAddressBalance = insert(addressBals, Statement{Name: "address_balances.insert", InUse: true,
		Pattern: "record an owning address's balance after a milestone that changed it"}, balanceColumns)
	AddressBalanceAt = query(addressBals, Statement{Name: "address_balances.at", InUse: true,
		Pattern: "read an address's balance at a milestone: its newest row at or before it"}, balanceColumns[1:],
		addressBals.SelectBuilder().Where(qb.LtOrEq("milestone_index")).Limit(1))
)

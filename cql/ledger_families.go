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
	InsertLedgerDelta = def(ledgerDeltas, "ledger_family_deltas.insert",
		"record what one milestone changed in the ledger families", insert(ledgerDeltas, deltaColumns...))
	LedgerDelta = def(ledgerDeltas, "ledger_family_deltas.by_milestone", "read one milestone's ledger family deltas",
		from(ledgerDeltas, "ms_range_id", "milestone_index").Columns(deltaColumns[2:]...))

	InsertAddressBalance = def(addressBals, "address_balances.insert",
		"record an owning address's balance after a milestone that changed it",
		insert(addressBals, balanceColumns...))
	AddressBalanceAt = def(addressBals, "address_balances.at",
		"read an address's balance at a milestone: its newest row at or before it",
		addressBals.SelectBuilder().Where(qb.LtOrEq("milestone_index")).Limit(1).Columns(balanceColumns[1:]...))
)

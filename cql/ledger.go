package cql

import (
	"slices"

	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

// Ledger state (migration 000008, docs/schema.md D18-D21): unspent outputs for TIP-26
// queries and balances, ledger updates by address and by milestone, milestones by ID.

// Columns an unspent output's rows carry besides their keys: what TIP-26 filters and
// balances read, so a filter needs no second read. The owner is who holds the output:
// its address unlock condition, an alias's state controller, a foundry's alias.
var unspentFilterColumns = []string{"milestone_index", "amount", "native_token_count", "owner", "dust_return_address",
	"dust_return_amount", "timelock", "expiration", "expiration_return_address", "sender", "tag", "issuer",
	"state_controller", "governor", "chain_id"}

// tupleSlice bounds a page of TIP-26 order: from (created_at, output_id) inclusive (the
// cursor, or createdAfter+1) to (created_at, output_id) exclusive (createdBefore).
var tupleSlice = []qb.Cmp{qb.GtOrEqTupleNamed("(created_at, output_id)", 2, "from"),
	qb.LtTupleNamed("(created_at, output_id)", 2, "to")}

// The unspent set and its spent twin (migration 000012, docs/schema.md D27): the rows of
// the unspent tables for outputs since spent, with the spending milestone; TIP-26 lists
// with includeSpent read them in the same merge as the unspent ones.
var (
	InsertUnspent = def(unspentOutputs, "unspent_outputs.insert", "add a created output to the unspent set",
		unspentOutputs.InsertBuilder())
	DeleteUnspent = def(unspentOutputs, "unspent_outputs.delete", "remove a spent output from the unspent set",
		unspentOutputs.DeleteBuilder())
	InsertUnspentByAddress = def(unspentOutputsByAddress, "unspent_outputs_by_address.insert",
		"index an unspent output by an address it names, in one role", unspentOutputsByAddress.InsertBuilder())
	DeleteUnspentByAddress = def(unspentOutputsByAddress, "unspent_outputs_by_address.delete",
		"remove a spent output from an address's unspent set", unspentOutputsByAddress.DeleteBuilder())
	InsertSpent = def(spentOutputs, "spent_outputs.insert", "add a spent output to the spent twin",
		spentOutputs.InsertBuilder())
	InsertSpentByAddress = def(spentOutputsByAddress, "spent_outputs_by_address.insert",
		"index a spent output by an address it names, in one role", spentOutputsByAddress.InsertBuilder())
	InsertSpentMilestone = def(spentOutputsMilestones, "spent_outputs_milestones.insert",
		"record that the spent twin holds a milestone's spends", spentOutputsMilestones.InsertBuilder())
	SpentMilestone = def(spentOutputsMilestones, "spent_outputs_milestones.by_index",
		"does the spent twin hold a milestone's spends?", get(spentOutputsMilestones, "milestone_index"))
)

// addressUpdates selects an address's ledger updates in one partition within milestones
// [first, last].
func addressUpdates() *qb.SelectBuilder {
	return addressLedgerUpdates.SelectBuilder(columnsOf(addressLedgerUpdates)...).
		Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index"))
}

var (
	InsertAddressUpdate = def(addressLedgerUpdates, "address_ledger_updates.insert",
		"record that an output naming an address was created or spent", addressLedgerUpdates.InsertBuilder())
	AddressUpdatesNewest = def(addressLedgerUpdates, "address_ledger_updates.newest",
		"list an address's ledger updates in one ms_range_id partition within milestones [first, last], newest first",
		addressUpdates())
	AddressUpdatesOldest = def(addressLedgerUpdates, "address_ledger_updates.oldest",
		"list an address's ledger updates in one ms_range_id partition within milestones [first, last], oldest first",
		addressUpdates().OrderBy("milestone_index", qb.ASC))
	InsertMilestoneUpdate = def(milestoneLedgerUpdates, "milestone_ledger_updates.insert",
		"record an output a milestone created or consumed", milestoneLedgerUpdates.InsertBuilder())
	MilestoneUpdates = def(milestoneLedgerUpdates, "milestone_ledger_updates.by_milestone",
		"list the outputs a milestone created (is_spent false) and consumed (true)",
		milestoneLedgerUpdates.SelectBuilder(columnsOf(milestoneLedgerUpdates)...))
	InsertMilestoneID = def(milestonesByID, "milestones_by_id.insert", "map a milestone ID to its index",
		milestonesByID.InsertBuilder())
	MilestoneIndexByID = def(milestonesByID, "milestones_by_id.by_id", "find a milestone's index by its ID",
		milestonesByID.SelectBuilder("milestone_index"))
)

// LedgerPages are the page reads of one side of the ledger state, the unspent set or
// its spent twin: by kind and by an address in a role, each in TIP-26 order or newest
// first (its reverse), within a (created_at, output_id) slice of one ms_range_id
// partition. Both sides have the same keys and columns, so the same reads.
// ByAddressOutputs is ByAddress with the output each row carries (the wallet's read).
type LedgerPages struct{ ByKind, ByAddress, ByKindNewest, ByAddressNewest, ByAddressOutputs *Statement }

// The page reads of the unspent set and of the spent twin.
var (
	UnspentPages = defineLedgerPages("unspent", unspentOutputs, unspentOutputsByAddress)
	SpentPages   = defineLedgerPages("spent", spentOutputs, spentOutputsByAddress)
)

// defineLedgerPages defines the page reads of one side, each returning every column.
func defineLedgerPages(side string, byKind, byAddress *table.Table) LedgerPages {
	const (
		slice       = "within a (created_at, output_id) slice"
		ofKind      = " outputs of a kind created in one ms_range_id partition, "
		namingRole  = " outputs of a kind naming an address in a role, in one ms_range_id partition, "
		tip26       = "in TIP-26 order, "
		newestFirst = "newest first (reverse TIP-26 order), "
	)
	kindSlice := func() *qb.SelectBuilder { return byKind.SelectBuilder().Where(tupleSlice...) }
	roleSlice := func() *qb.SelectBuilder {
		return byAddress.SelectBuilder().Where(eq("output_kind", "role")...).Where(tupleSlice...)
	}
	// The filter reads leave out what the by-address rows carry of their output.
	filterColumns := slices.DeleteFunc(slices.Clone(columnsOf(byAddress)), func(c string) bool {
		return !slices.Contains(columnsOf(byKind), c) && c != "address" && c != "role"
	})
	page := func(m *table.Table, name, pattern string, b *qb.SelectBuilder, cols []string) *Statement {
		return def(m, m.Name()+"."+name, pattern, b.Columns(cols...))
	}
	return LedgerPages{
		ByKind: page(byKind, "by_kind_range", "list "+side+ofKind+tip26+slice, kindSlice(), columnsOf(byKind)),
		ByAddress: page(byAddress, "by_role", "list the "+side+namingRole+tip26+slice, roleSlice(),
			filterColumns),
		ByKindNewest: page(byKind, "by_kind_range_newest", "list "+side+ofKind+newestFirst+slice,
			descending(kindSlice(), "created_at", "output_id"), columnsOf(byKind)),
		ByAddressNewest: page(byAddress, "by_role_newest", "list the "+side+namingRole+newestFirst+slice,
			descending(roleSlice(), "output_kind", "role", "created_at", "output_id"), filterColumns),
		ByAddressOutputs: page(byAddress, "by_role_with_outputs", "list the "+side+namingRole+tip26+slice+
			", with the output each row carries", roleSlice(), columnsOf(byAddress)),
	}
}

// descending orders b by each column of cols, descending.
func descending(b *qb.SelectBuilder, cols ...string) *qb.SelectBuilder {
	for _, c := range cols {
		b = b.OrderBy(c, qb.DESC)
	}
	return b
}

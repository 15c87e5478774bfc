package cql

import (
	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

// Ledger state (migration 000008, docs/schema.md D18-D21): unspent outputs for TIP-26
// queries and balances, ledger updates by address and by milestone, milestones by ID.

// Columns an unspent output's rows carry besides their keys: what TIP-26 filters and
// balances read, so a filter needs no second read.
var unspentFilterColumns = []string{"milestone_index", "amount", "native_token_count", "owner", "dust_return_address",
	"dust_return_amount", "timelock", "expiration", "expiration_return_address", "sender", "tag", "issuer",
	"state_controller", "governor", "chain_id"}

// Columns of unspent_outputs and unspent_outputs_by_address rows, in bind/scan order.
// "owner" is who holds the output: its address unlock condition; an alias's state
// controller; a foundry's alias.
var (
	unspentKey          = []string{"output_kind", "ms_range_id", "created_at", "output_id"}
	unspentColumns      = join(unspentKey, unspentFilterColumns)
	unspentByAddressKey = []string{"address", "ms_range_id", "output_kind", "role", "created_at", "output_id"}
	unspentByAddrCols   = join(unspentByAddressKey, unspentFilterColumns)
)

// tupleSlice bounds a page of TIP-26 order: from (created_at, output_id) inclusive (the
// cursor, or createdAfter+1) to (created_at, output_id) exclusive (createdBefore).
var tupleSlice = []qb.Cmp{qb.GtOrEqTupleNamed("(created_at, output_id)", 2, "from"),
	qb.LtTupleNamed("(created_at, output_id)", 2, "to")}

var (
	InsertUnspent = insert(unspentOutputs, Statement{Name: "unspent_outputs.insert", InUse: true,
		Pattern: "add a created output to the unspent set"}, unspentColumns)
	DeleteUnspent = remove(unspentOutputs, Statement{Name: "unspent_outputs.delete", InUse: true,
		Pattern: "remove a spent output from the unspent set"}, unspentKey)
	InsertUnspentByAddress = insert(unspentOutputsByAddress, Statement{Name: "unspent_outputs_by_address.insert",
		InUse: true, Pattern: "index an unspent output by an address it names, in one role"}, unspentByAddrCols)
	DeleteUnspentByAddress = remove(unspentOutputsByAddress, Statement{Name: "unspent_outputs_by_address.delete",
		InUse: true, Pattern: "remove a spent output from an address's unspent set"}, unspentByAddressKey)
)

// Columns of address_ledger_updates rows.
var (
	addressUpdateColumns = []string{"address", "ms_range_id", "milestone_index", "output_id", "is_spent",
		"ms_timestamp", "output_kind", "roles", "amount"}
	addressUpdateWhere = "address = ? AND ms_range_id = ? AND milestone_index >= ? AND milestone_index <= ?"
)

// addressUpdates selects an address's ledger updates in one partition within milestones
// [first, last].
func addressUpdates() *qb.SelectBuilder {
	return addressLedgerUpdates.SelectBuilder().Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index"))
}

var (
	InsertAddressUpdate = insert(addressLedgerUpdates, Statement{Name: "address_ledger_updates.insert",
		InUse: true, Pattern: "record that an output naming an address was created or spent"}, addressUpdateColumns)
	AddressUpdatesNewest = query(addressLedgerUpdates, Statement{Name: "address_ledger_updates.newest",
		InUse: true, Pattern: "list an address's ledger updates in one ms_range_id partition within milestones " +
			"[first, last], newest first"}, addressUpdateColumns, addressUpdates())
	AddressUpdatesOldest = query(addressLedgerUpdates, Statement{Name: "address_ledger_updates.oldest",
		InUse: true, Pattern: "list an address's ledger updates in one ms_range_id partition within milestones " +
			"[first, last], oldest first"}, addressUpdateColumns, addressUpdates().OrderBy("milestone_index", qb.ASC))
)

// Columns of milestone_ledger_updates rows.
var milestoneUpdateColumns = []string{"milestone_index", "is_spent", "output_id", "output_kind", "amount", "address"}

var (
	InsertMilestoneUpdate = insert(milestoneLedgerUpdates, Statement{Name: "milestone_ledger_updates.insert",
		InUse: true, Pattern: "record an output a milestone created or consumed"}, milestoneUpdateColumns)
	MilestoneUpdates = query(milestoneLedgerUpdates, Statement{Name: "milestone_ledger_updates.by_milestone",
		InUse: true, Pattern: "list the outputs a milestone created (is_spent false) and consumed (true)"},
		milestoneUpdateColumns, milestoneLedgerUpdates.SelectBuilder())
)

var (
	InsertMilestoneID = define(milestonesByID, Statement{Name: "milestones_by_id.insert", InUse: true,
		Pattern: "map a milestone ID to its index"}, milestonesByID.InsertBuilder())
	MilestoneIndexByID = define(milestonesByID, Statement{Name: "milestones_by_id.by_id", InUse: true,
		Pattern: "find a milestone's index by its ID"}, milestonesByID.SelectBuilder("milestone_index"))
)

// The spent twin (migration 000012, docs/schema.md D27): the rows of the unspent tables
// for outputs since spent, with the spending milestone; TIP-26 lists with includeSpent
// read them in the same merge as the unspent ones.
var (
	spentColumns    = join(unspentColumns, []string{"spent_milestone_index"})
	spentByAddrCols = join(unspentByAddrCols, []string{"spent_milestone_index"})
)

var (
	InsertSpent = insert(spentOutputs, Statement{Name: "spent_outputs.insert", InUse: true,
		Pattern: "add a spent output to the spent twin"}, spentColumns)
	InsertSpentByAddress = insert(spentOutputsByAddress, Statement{Name: "spent_outputs_by_address.insert",
		InUse: true, Pattern: "index a spent output by an address it names, in one role"}, spentByAddrCols)
	InsertSpentMilestone = insert(spentOutputsMilestones, Statement{Name: "spent_outputs_milestones.insert",
		InUse: true, Pattern: "record that the spent twin holds a milestone's spends"},
		[]string{"ms_range_id", "milestone_index"})
	SpentMilestone = query(spentOutputsMilestones, Statement{Name: "spent_outputs_milestones.by_index",
		InUse: true, Pattern: "does the spent twin hold a milestone's spends?"},
		[]string{"milestone_index"}, from(spentOutputsMilestones, "ms_range_id", "milestone_index"))
)

// LedgerPages are the page reads of one side of the ledger state, the unspent set or
// its spent twin: by kind and by an address in a role, each in TIP-26 order or newest
// first (its reverse), within a (created_at, output_id) slice of one ms_range_id
// partition. Both sides have the same keys and columns, so the same reads.
type LedgerPages struct{ ByKind, ByAddress, ByKindNewest, ByAddressNewest *Statement }

// The page reads of the unspent set and of the spent twin.
var (
	UnspentPages = defineLedgerPages("unspent", unspentOutputs, unspentOutputsByAddress, nil)
	SpentPages   = defineLedgerPages("spent", spentOutputs, spentOutputsByAddress, []string{"spent_milestone_index"})
)

// defineLedgerPages defines the page reads of one side; a side's own columns (the spent
// twin's spending milestone) come after the unspent set's.
func defineLedgerPages(side string, byKind, byAddress *table.Table, own []string) LedgerPages {
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
	page := func(m *table.Table, name, pattern string, cols []string, b *qb.SelectBuilder) *Statement {
		return query(m, named(m.Name(), name, pattern), cols, b)
	}
	kindCols, addrCols := join(unspentColumns, own), join(unspentByAddrCols, own)
	return LedgerPages{
		ByKind: page(byKind, "by_kind_range", "list "+side+ofKind+tip26+slice, kindCols, kindSlice()),
		ByAddress: page(byAddress, "by_role", "list the "+side+namingRole+tip26+slice, addrCols,
			roleSlice()),
		ByKindNewest: page(byKind, "by_kind_range_newest", "list "+side+ofKind+newestFirst+slice, kindCols,
			descending(kindSlice(), "created_at", "output_id")),
		ByAddressNewest: page(byAddress, "by_role_newest", "list the "+side+namingRole+newestFirst+slice,
			addrCols, descending(roleSlice(), "output_kind", "role", "created_at", "output_id")),
	}
}

// descending orders b by each column of cols, descending.
func descending(b *qb.SelectBuilder, cols ...string) *qb.SelectBuilder {
	for _, c := range cols {
		b = b.OrderBy(c, qb.DESC)
	}
	return b
}

package cql

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
const tupleSlice = " AND (created_at, output_id) >= (?, ?) AND (created_at, output_id) < (?, ?)"

var (
	InsertUnspent = insert(Statement{Name: "unspent_outputs.insert", Table: "unspent_outputs", InUse: true,
		Pattern: "add a created output to the unspent set"}, unspentColumns, "")
	DeleteUnspent = remove(Statement{Name: "unspent_outputs.delete", Table: "unspent_outputs", InUse: true,
		Pattern: "remove a spent output from the unspent set"}, unspentKey)
	InsertUnspentByAddress = insert(Statement{Name: "unspent_outputs_by_address.insert",
		Table: "unspent_outputs_by_address", InUse: true,
		Pattern: "index an unspent output by an address it names, in one role"}, unspentByAddrCols, "")
	DeleteUnspentByAddress = remove(Statement{Name: "unspent_outputs_by_address.delete",
		Table: "unspent_outputs_by_address", InUse: true,
		Pattern: "remove a spent output from an address's unspent set"}, unspentByAddressKey)
)

// Columns of address_ledger_updates rows.
var (
	addressUpdateColumns = []string{"address", "ms_range_id", "milestone_index", "output_id", "is_spent",
		"ms_timestamp", "output_kind", "roles", "amount"}
	addressUpdateWhere = "address = ? AND ms_range_id = ? AND milestone_index >= ? AND milestone_index <= ?"
)

var (
	InsertAddressUpdate = insert(Statement{Name: "address_ledger_updates.insert", Table: "address_ledger_updates",
		InUse: true, Pattern: "record that an output naming an address was created or spent"}, addressUpdateColumns, "")
	AddressUpdatesNewest = query(Statement{Name: "address_ledger_updates.newest", Table: "address_ledger_updates",
		InUse: true, Pattern: "list an address's ledger updates in one ms_range_id partition within milestones " +
			"[first, last], newest first"}, addressUpdateColumns, addressUpdateWhere)
	AddressUpdatesOldest = query(Statement{Name: "address_ledger_updates.oldest", Table: "address_ledger_updates",
		InUse: true, Pattern: "list an address's ledger updates in one ms_range_id partition within milestones " +
			"[first, last], oldest first"}, addressUpdateColumns, addressUpdateWhere+" ORDER BY milestone_index ASC")
)

// Columns of milestone_ledger_updates rows.
var milestoneUpdateColumns = []string{"milestone_index", "is_spent", "output_id", "output_kind", "amount", "address"}

var (
	InsertMilestoneUpdate = insert(Statement{Name: "milestone_ledger_updates.insert", Table: "milestone_ledger_updates",
		InUse: true, Pattern: "record an output a milestone created or consumed"}, milestoneUpdateColumns, "")
	MilestoneUpdates = query(Statement{Name: "milestone_ledger_updates.by_milestone", Table: "milestone_ledger_updates",
		InUse: true, Pattern: "list the outputs a milestone created (is_spent false) and consumed (true)"},
		milestoneUpdateColumns, "milestone_index = ?")
)

var (
	InsertMilestoneID = define(Statement{Name: "milestones_by_id.insert", Table: "milestones_by_id", Kind: Insert,
		InUse: true, Pattern: "map a milestone ID to its index",
		CQL: `INSERT INTO milestones_by_id (milestone_id, milestone_index) VALUES (?, ?)`})
	MilestoneIndexByID = define(Statement{Name: "milestones_by_id.by_id", Table: "milestones_by_id", Kind: Select,
		InUse: true, Pattern: "find a milestone's index by its ID",
		CQL: `SELECT milestone_index FROM milestones_by_id WHERE milestone_id = ?`})
)

// The spent twin (migration 000012, docs/schema.md D27): the rows of the unspent tables
// for outputs since spent, with the spending milestone; TIP-26 lists with includeSpent
// read them in the same merge as the unspent ones.
var (
	spentColumns    = join(unspentColumns, []string{"spent_milestone_index"})
	spentByAddrCols = join(unspentByAddrCols, []string{"spent_milestone_index"})
)

var (
	InsertSpent = insert(Statement{Name: "spent_outputs.insert", Table: "spent_outputs", InUse: true,
		Pattern: "add a spent output to the spent twin"}, spentColumns, "")
	InsertSpentByAddress = insert(Statement{Name: "spent_outputs_by_address.insert",
		Table: "spent_outputs_by_address", InUse: true,
		Pattern: "index a spent output by an address it names, in one role"}, spentByAddrCols, "")
	InsertSpentMilestone = insert(Statement{Name: "spent_outputs_milestones.insert",
		Table: "spent_outputs_milestones", InUse: true,
		Pattern: "record that the spent twin holds a milestone's spends"},
		[]string{"ms_range_id", "milestone_index"}, "")
	SpentMilestone = query(Statement{Name: "spent_outputs_milestones.by_index", Table: "spent_outputs_milestones",
		InUse: true, Pattern: "does the spent twin hold a milestone's spends?"},
		[]string{"milestone_index"}, "ms_range_id = ? AND milestone_index = ?")
)

// LedgerPages are the page reads of one side of the ledger state, the unspent set or
// its spent twin: by kind and by an address in a role, each in TIP-26 order or newest
// first (its reverse), within a (created_at, output_id) slice of one ms_range_id
// partition. Both sides have the same keys and columns, so the same reads.
type LedgerPages struct{ ByKind, ByAddress, ByKindNewest, ByAddressNewest *Statement }

// The page reads of the unspent set and of the spent twin.
var (
	UnspentPages = defineLedgerPages("unspent")
	SpentPages   = defineLedgerPages("spent")
)

func defineLedgerPages(side string) LedgerPages {
	table, byAddress := side+"_outputs", side+"_outputs_by_address"
	const (
		byKind      = "output_kind = ? AND ms_range_id = ?" + tupleSlice
		byRole      = "address = ? AND ms_range_id = ? AND output_kind = ? AND role = ?" + tupleSlice
		kindNewest  = " ORDER BY created_at DESC, output_id DESC"
		roleNewest  = " ORDER BY output_kind DESC, role DESC, created_at DESC, output_id DESC"
		slice       = "within a (created_at, output_id) slice"
		ofKind      = " outputs of a kind created in one ms_range_id partition, "
		namingRole  = " outputs of a kind naming an address in a role, in one ms_range_id partition, "
		tip26       = "in TIP-26 order, "
		newestFirst = "newest first (reverse TIP-26 order), "
	)
	page := func(name, table, pattern string, cols []string, where string) *Statement {
		return query(Statement{Name: name, Table: table, InUse: true, Pattern: pattern}, cols, where)
	}
	return LedgerPages{
		ByKind: page(table+".by_kind_range", table, "list "+side+ofKind+tip26+slice, unspentColumns, byKind),
		ByAddress: page(byAddress+".by_role", byAddress, "list the "+side+namingRole+tip26+slice,
			unspentByAddrCols, byRole),
		ByKindNewest: page(table+".by_kind_range_newest", table, "list "+side+ofKind+newestFirst+slice,
			unspentColumns, byKind+kindNewest),
		ByAddressNewest: page(byAddress+".by_role_newest", byAddress, "list the "+side+namingRole+newestFirst+slice,
			unspentByAddrCols, byRole+roleNewest),
	}
}

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
	UnspentPage = query(Statement{Name: "unspent_outputs.by_kind_range", Table: "unspent_outputs", InUse: true,
		Pattern: "list unspent outputs of a kind created in one ms_range_id partition, in TIP-26 order, " +
			"from a (created_at, output_id) position up to a bound"},
		unspentColumns, "output_kind = ? AND ms_range_id = ?"+tupleSlice)

	InsertUnspentByAddress = insert(Statement{Name: "unspent_outputs_by_address.insert",
		Table: "unspent_outputs_by_address", InUse: true,
		Pattern: "index an unspent output by an address it names, in one role"}, unspentByAddrCols, "")
	DeleteUnspentByAddress = remove(Statement{Name: "unspent_outputs_by_address.delete",
		Table: "unspent_outputs_by_address", InUse: true,
		Pattern: "remove a spent output from an address's unspent set"}, unspentByAddressKey)
	UnspentByAddressPage = query(Statement{Name: "unspent_outputs_by_address.by_role", Table: "unspent_outputs_by_address",
		InUse: true, Pattern: "list the unspent outputs of a kind naming an address in a role, in one ms_range_id " +
			"partition, in TIP-26 order, from a (created_at, output_id) position up to a bound"},
		unspentByAddrCols, "address = ? AND ms_range_id = ? AND output_kind = ? AND role = ?"+tupleSlice)

	UnspentPageNewest = query(Statement{Name: "unspent_outputs.by_kind_range_newest", Table: "unspent_outputs",
		InUse: true, Pattern: "list unspent outputs of a kind created in one ms_range_id partition, newest first " +
			"(reverse TIP-26 order), within a (created_at, output_id) slice"},
		unspentColumns, "output_kind = ? AND ms_range_id = ?"+tupleSlice+" ORDER BY created_at DESC, output_id DESC")
	UnspentByAddressPageNewest = query(Statement{Name: "unspent_outputs_by_address.by_role_newest",
		Table: "unspent_outputs_by_address", InUse: true, Pattern: "list the unspent outputs of a kind naming an " +
			"address in a role, in one ms_range_id partition, newest first (reverse TIP-26 order), within a " +
			"(created_at, output_id) slice"},
		unspentByAddrCols, "address = ? AND ms_range_id = ? AND output_kind = ? AND role = ?"+tupleSlice+
			" ORDER BY output_kind DESC, role DESC, created_at DESC, output_id DESC")
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

	SpentPage = query(Statement{Name: "spent_outputs.by_kind_range", Table: "spent_outputs", InUse: true,
		Pattern: "list spent outputs of a kind created in one ms_range_id partition, in TIP-26 order, " +
			"within a (created_at, output_id) slice"},
		unspentColumns, "output_kind = ? AND ms_range_id = ?"+tupleSlice)
	SpentByAddressPage = query(Statement{Name: "spent_outputs_by_address.by_role", Table: "spent_outputs_by_address",
		InUse: true, Pattern: "list the spent outputs of a kind naming an address in a role, in one ms_range_id " +
			"partition, in TIP-26 order, within a (created_at, output_id) slice"},
		unspentByAddrCols, "address = ? AND ms_range_id = ? AND output_kind = ? AND role = ?"+tupleSlice)
	SpentPageNewest = query(Statement{Name: "spent_outputs.by_kind_range_newest", Table: "spent_outputs",
		InUse: true, Pattern: "list spent outputs of a kind created in one ms_range_id partition, newest first, " +
			"within a (created_at, output_id) slice"},
		unspentColumns, "output_kind = ? AND ms_range_id = ?"+tupleSlice+" ORDER BY created_at DESC, output_id DESC")
	SpentByAddressPageNewest = query(Statement{Name: "spent_outputs_by_address.by_role_newest",
		Table: "spent_outputs_by_address", InUse: true, Pattern: "list the spent outputs of a kind naming an " +
			"address in a role, in one ms_range_id partition, newest first, within a (created_at, output_id) slice"},
		unspentByAddrCols, "address = ? AND ms_range_id = ? AND output_kind = ? AND role = ?"+tupleSlice+
			" ORDER BY output_kind DESC, role DESC, created_at DESC, output_id DESC")
)

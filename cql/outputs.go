package cql

import "strings"

// PendingRange is the ms_range_id of outputs and tags of messages not yet referenced by a
// milestone (seed: "VALUES (?, 2147483647, ...) USING TTL 86400").
const PendingRange = 2147483647

// OutputTable describes one output indexation table and the views over it.
type OutputTable struct {
	Table   string   // e.g. "basic_outputs"
	Key     string   // partition key column: output_id, alias_id, nft_id, foundry_id
	Columns []string // every column, in the order insert statements bind them
	Views   []string // the indexed columns; view name is Table + "_by_" + column
	// HasOutputID: chain outputs (alias, nft, foundry) key each version by output_id too.
	HasOutputID bool
}

// Output tables, their statements and their views' selects.
var (
	BasicOutputs = OutputTable{Table: "basic_outputs", Key: "output_id",
		Columns: cols("output_id", "address", "dust_return_address", "sender", "tag"),
		Views:   []string{"address", "tag", "sender"}}
	AliasOutputs = OutputTable{Table: "alias_outputs", Key: "alias_id", HasOutputID: true,
		Columns: cols("alias_id", "output_id", "state_index", "sender", "issuer", "state_controller", "governor"),
		Views:   []string{"sender", "issuer", "state_controller", "governor"}}
	FoundryOutputs = OutputTable{Table: "foundry_outputs", Key: "foundry_id", HasOutputID: true,
		Columns: cols("foundry_id", "output_id", "address"),
		Views:   []string{"address"}}
	NFTOutputs = OutputTable{Table: "nft_outputs", Key: "nft_id", HasOutputID: true,
		Columns: cols("nft_id", "output_id", "address", "dust_return_address", "sender", "issuer", "tag"),
		Views:   []string{"address", "dust_return_address", "sender", "issuer", "tag"}}
)

// cols lists an output table's columns: its own first, then those all output tables share.
func cols(own ...string) []string {
	return append(own, "ms_range_id", "milestone_index", "ms_timestamp", "inclusion_state",
		"message_id", "amount", "data")
}

// OutputStatements are the statements of one output table.
type OutputStatements struct {
	InsertPending *Statement            // USING TTL: rows of unreferenced messages
	Insert        *Statement            // confirmed rows
	DeletePending *Statement            // drop the pending rows of a key once confirmed
	MarkSpent     *Statement            // set spent_by / spent_milestone_index on the creating row
	ByKey         *Statement            // every row (version) of a key, newest first
	ByView        map[string]*Statement // view column -> select one partition
	ByViewTime    map[string]*Statement // view column -> select one partition in [from, to)
}

// Outputs maps a table name to its statements.
var Outputs = map[string]*OutputStatements{}

func init() {
	for _, t := range []OutputTable{BasicOutputs, AliasOutputs, FoundryOutputs, NFTOutputs} {
		Outputs[t.Table] = defineOutputTable(t)
	}
}

func (t OutputTable) keyWhere() string {
	w := t.Key + " = ? AND ms_range_id = ? AND milestone_index = ? AND ms_timestamp = ?"
	if t.HasOutputID {
		w += " AND output_id = ?"
	}
	return w
}

func defineOutputTable(t OutputTable) *OutputStatements {
	list := strings.Join(t.Columns, ", ")
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(t.Columns)), ", ")
	readCols := list + ", spent_by, spent_milestone_index"
	name := func(s string) string { return t.Table + "." + s }
	os := &OutputStatements{ByView: map[string]*Statement{}, ByViewTime: map[string]*Statement{}}
	os.InsertPending = define(Statement{Name: name("insert_pending"), Table: t.Table, Kind: Insert, InUse: true,
		Pattern: "store an output of an unreferenced message in the pending partition, expiring",
		CQL:     "INSERT INTO " + t.Table + " (" + list + ") VALUES (" + marks + ") USING TTL ?"})
	os.Insert = define(Statement{Name: name("insert"), Table: t.Table, Kind: Insert, InUse: true,
		Pattern: "store a confirmed output",
		CQL:     "INSERT INTO " + t.Table + " (" + list + ") VALUES (" + marks + ")"})
	os.DeletePending = define(Statement{Name: name("delete_pending"), Table: t.Table, Kind: Delete, InUse: true,
		Pattern: "remove an output's pending rows once its milestone arrived",
		CQL:     "DELETE FROM " + t.Table + " WHERE " + t.Key + " = ? AND ms_range_id = ?"})
	os.MarkSpent = define(Statement{Name: name("mark_spent"), Table: t.Table, Kind: Update, InUse: true,
		Pattern: "record which transaction spent an output, in which milestone",
		CQL:     "UPDATE " + t.Table + " SET spent_by = ?, spent_milestone_index = ? WHERE " + t.keyWhere()})
	os.ByKey = define(Statement{Name: name("by_key"), Table: t.Table, Kind: Select, InUse: true,
		Pattern: "get every row of an output (or every version of a chain output), newest first",
		CQL:     "SELECT " + readCols + " FROM " + t.Table + " WHERE " + t.Key + " = ?"})
	for _, v := range t.Views {
		view := t.Table + "_by_" + v
		os.ByView[v] = define(Statement{Name: view + ".by_partition", Table: view, Kind: Select, InUse: true,
			Pattern: "list outputs by " + v + " in one ms_range_id partition, newest first (seed select 1)",
			CQL:     "SELECT " + readCols + " FROM " + view + " WHERE " + v + " = ? AND ms_range_id = ?"})
		os.ByViewTime[v] = define(Statement{Name: view + ".by_partition_time", Table: view, Kind: Select, InUse: true,
			Pattern: "list outputs by " + v + " in one partition within [from, to), newest first (seed select 2)",
			CQL: "SELECT " + readCols + " FROM " + view + " WHERE " + v + " = ? AND ms_range_id = ?" +
				" AND ms_timestamp >= ? AND ms_timestamp < ?"})
	}
	return os
}

// Legacy outputs (seed: Legacy Outputs). Spending writes the is_used=true row and deletes
// the is_used=false row in one single-partition batch.
var (
	InsertLegacyOutput = define(Statement{Name: "legacy_outputs.insert", Table: "legacy_outputs", Kind: Insert, InUse: true,
		Pattern: "store a legacy (pre-Stardust) output, used or not",
		CQL: `INSERT INTO legacy_outputs (output_id, output_type, is_used, ms_range_id, milestone_index, ms_timestamp,
			inclusion_state, message_id, amount, address, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`})
	DeleteLegacyOutput = define(Statement{Name: "legacy_outputs.delete", Table: "legacy_outputs", Kind: Delete, InUse: true,
		Pattern: "remove a legacy output's unused row when it is spent",
		CQL: `DELETE FROM legacy_outputs WHERE output_id = ? AND output_type = ? AND is_used = ?
			AND ms_range_id = ? AND milestone_index = ? AND ms_timestamp = ?`})
	LegacyOutputByID = define(Statement{Name: "legacy_outputs.by_id", Table: "legacy_outputs", Kind: Select, InUse: true,
		Pattern: "get a legacy output by output ID",
		CQL: `SELECT output_id, output_type, is_used, ms_range_id, milestone_index, ms_timestamp, inclusion_state,
			message_id, amount, address, data FROM legacy_outputs WHERE output_id = ?`})
	LegacyOutputsByAddress = define(Statement{Name: "legacy_outputs_by_address.by_partition", Table: "legacy_outputs_by_address", Kind: Select, InUse: true,
		Pattern: "list legacy outputs of an address in one ms_range_id partition",
		CQL: `SELECT output_id, output_type, is_used, ms_range_id, milestone_index, ms_timestamp, inclusion_state,
			message_id, amount, address, data FROM legacy_outputs_by_address WHERE address = ? AND ms_range_id = ?`})
)

package cql

import "github.com/scylladb/gocqlx/v2/qb"

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

// outputTables are the output tables, each with its model, its views' models and its
// statements.
var outputTables = func() []OutputTable {
	all := []OutputTable{BasicOutputs, AliasOutputs, FoundryOutputs, NFTOutputs}
	for _, t := range all {
		outputModel(t)
		Outputs[t.Table] = defineOutputTable(t)
	}
	return all
}()

// KeyColumns is the primary key of one row (version) of the table: its key, partition
// and clustering columns, in the order mark_spent binds them.
func (t OutputTable) KeyColumns() []string {
	key := []string{t.Key, "ms_range_id", "milestone_index", "ms_timestamp"}
	if t.HasOutputID {
		key = append(key, "output_id")
	}
	return key
}

func defineOutputTable(t OutputTable) *OutputStatements {
	m, name := models[t.Table], func(what string) string { return t.Table + "." + what }
	os := &OutputStatements{ByView: map[string]*Statement{}, ByViewTime: map[string]*Statement{}}
	os.InsertPending = def(m, name("insert_pending"),
		"store an output of an unreferenced message in the pending partition, expiring",
		insert(m, t.Columns...).TTLNamed(ttlBind))
	os.Insert = def(m, name("insert"), "store a confirmed output", insert(m, t.Columns...))
	os.DeletePending = def(m, name("delete_pending"), "remove an output's pending rows once its milestone arrived",
		qb.Delete(t.Table).Where(eq(t.Key, "ms_range_id")...))
	os.MarkSpent = def(m, name("mark_spent"), "record which transaction spent an output, in which milestone",
		m.UpdateBuilder(outputSpentBy...))
	os.ByKey = def(m, name("by_key"), "get every row of an output (or every version of a chain output), newest first",
		m.SelectBuilder(columnsOf(m)...))
	for _, v := range t.Views {
		view := models[t.Table+"_by_"+v]
		os.ByView[v] = def(view, view.Name()+".by_partition",
			"list outputs by "+v+" in one ms_range_id partition, newest first (seed select 1)",
			view.SelectBuilder(columnsOf(m)...))
		os.ByViewTime[v] = def(view, view.Name()+".by_partition_time",
			"list outputs by "+v+" in one partition within [from, to), newest first (seed select 2)",
			view.SelectBuilder(columnsOf(m)...).Where(qb.GtOrEq("ms_timestamp"), qb.Lt("ms_timestamp")))
	}
	return os
}

// Legacy outputs (seed: Legacy Outputs). Spending writes the is_used=true row and deletes
// the is_used=false row in one single-partition batch.
var (
	InsertLegacyOutput = def(legacyOutputs, "legacy_outputs.insert",
		"store a legacy (pre-Stardust) output, used or not", legacyOutputs.InsertBuilder())
	DeleteLegacyOutput = def(legacyOutputs, "legacy_outputs.delete",
		"remove a legacy output's unused row when it is spent", legacyOutputs.DeleteBuilder())
	LegacyOutputByID = def(legacyOutputs, "legacy_outputs.by_id", "get a legacy output by output ID",
		legacyOutputs.SelectBuilder(columnsOf(legacyOutputs)...))
	LegacyOutputsByAddress = def(legacyOutputsByAddress, "legacy_outputs_by_address.by_partition",
		"list legacy outputs of an address in one ms_range_id partition",
		legacyOutputsByAddress.SelectBuilder(columnsOf(legacyOutputsByAddress)...))
)

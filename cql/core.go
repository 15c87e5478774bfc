package cql

// Reads of the node interface (TIP-25 core, /api/core/v2) that the other statements do
// not cover.

// OutputsBooked maps an output table to its select of the rows of one key (an output
// ID, or a chain's ID) booked in one milestone: the output metadata's booking time and
// spend, for outputs whose booking milestone is not indexed (created before the first
// indexed milestone). A chain has few versions in one milestone; the caller picks its
// output ID among them.
var OutputsBooked = map[string]*Statement{}

func init() {
	for _, t := range outputTables {
		m := models[t.Table]
		OutputsBooked[t.Table] = def(m, t.Table+".by_booking",
			"get the rows of an output (or chain) booked in one milestone (TIP-25 output metadata)",
			from(m, t.Key, "ms_range_id", "milestone_index").Columns(columnsOf(m)...))
	}
}

// TransactionOutputRows selects the output rows of one output: one per message carrying
// the transaction that created it, each with the milestone that referenced that message
// (the output's booking milestone for the included one). Bind variant 'output'.
var TransactionOutputRows = def(transactions, "transactions.output_rows",
	"get the output rows of an output with their milestone (TIP-25 output metadata)",
	from(transactions, "transaction_id", "idx", "variant").
		Columns("message_id", "data", "inclusion_state", "milestone_index"))

package cql

// Transactions (seed: Transactions). Variants: 'input' (idx = input index, data = the
// UTXO input), 'output' (idx = output index, data = the output), 'unlock' (stored under
// the SPENT output's transaction ID and index: data = spending tx ID, input index, unlock),
// so one query returns an output and the unlock that spent it.
var (
	transactionOwn          = []string{"transaction_id", "idx", "variant", "message_id", "data"}
	transactionRow          = join(transactionOwn, []string{"milestone_index", "inclusion_state"})
	unreferencedTransaction = join(transactionOwn, []string{"est_milestone_index"})
	outputAndUnlock         = []string{"variant", "message_id", "data", "inclusion_state"}
	transactionRows         = []string{"idx", "variant", "message_id", "data", "inclusion_state", "milestone_index"}
)

var (
	InsertTransactionRow = insert(Statement{Name: "transactions.insert", Table: "transactions", InUse: true,
		Pattern: "store one input, output or unlock row of a referenced transaction"}, transactionRow, "")
	InsertUnreferencedTransactionRow = insert(Statement{Name: "transactions.insert_unreferenced", Table: "transactions", InUse: true,
		Pattern: "store one row of a transaction whose message is not referenced yet"}, unreferencedTransaction, "")
	TransactionOutputAndUnlock = query(Statement{Name: "transactions.output_and_unlock", Table: "transactions", InUse: true,
		Pattern: "get an output and the unlock that spent it, by output ID (seed select 1)"},
		outputAndUnlock, `transaction_id = ? AND idx = ? AND variant IN ('output', 'unlock')`)
	TransactionRows = query(Statement{Name: "transactions.by_id", Table: "transactions", InUse: true,
		Pattern: "get every row of a transaction (seed select 2)"}, transactionRows, "transaction_id = ?")
	IncludedMessage = define(Statement{Name: "transactions_by_state.included_message", Table: "transactions_by_state", Kind: Select, InUse: true,
		Pattern: "find the message that included a transaction (seed view select)",
		// Bound to the transaction's own input 0 (idx 0, variant 'input'), not any row:
		// unlock rows are filed under the SPENT output's transaction ID, so a genesis ID
		// would otherwise find the message that spent it.
		CQL: `SELECT message_id FROM transactions_by_state
			WHERE transaction_id = ? AND inclusion_state = ? AND idx = ? AND variant = ? LIMIT 1`})
)

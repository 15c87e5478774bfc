package cql

// Transactions (seed: Transactions). Variants: 'input' (idx = input index, data = the
// UTXO input), 'output' (idx = output index, data = the output), 'unlock' (stored under
// the SPENT output's transaction ID and index: data = spending tx ID, input index, unlock),
// so one query returns an output and the unlock that spent it.
var (
	InsertTransactionRow = define(Statement{Name: "transactions.insert", Table: "transactions", Kind: Insert, InUse: true,
		Pattern: "store one input, output or unlock row of a referenced transaction",
		CQL: `INSERT INTO transactions (transaction_id, idx, variant, message_id, data, milestone_index, inclusion_state)
			VALUES (?, ?, ?, ?, ?, ?, ?)`})
	InsertUnreferencedTransactionRow = define(Statement{Name: "transactions.insert_unreferenced", Table: "transactions", Kind: Insert, InUse: true,
		Pattern: "store one row of a transaction whose message is not referenced yet",
		CQL: `INSERT INTO transactions (transaction_id, idx, variant, message_id, data, est_milestone_index)
			VALUES (?, ?, ?, ?, ?, ?)`})
	TransactionOutputAndUnlock = define(Statement{Name: "transactions.output_and_unlock", Table: "transactions", Kind: Select, InUse: true,
		Pattern: "get an output and the unlock that spent it, by output ID (seed select 1)",
		CQL: `SELECT variant, message_id, data, inclusion_state FROM transactions
			WHERE transaction_id = ? AND idx = ? AND variant IN ('output', 'unlock')`})
	TransactionRows = define(Statement{Name: "transactions.by_id", Table: "transactions", Kind: Select, InUse: true,
		Pattern: "get every row of a transaction (seed select 2)",
		CQL: `SELECT idx, variant, message_id, data, inclusion_state, milestone_index FROM transactions
			WHERE transaction_id = ?`})
	IncludedMessage = define(Statement{Name: "transactions_by_state.included_message", Table: "transactions_by_state", Kind: Select, InUse: true,
		Pattern: "find the message that included a transaction (seed view select)",
		// Bound to the transaction's own input 0 (idx 0, variant 'input'), not any row:
		// unlock rows are filed under the SPENT output's transaction ID, so a genesis ID
		// would otherwise find the message that spent it.
		CQL: `SELECT message_id FROM transactions_by_state
			WHERE transaction_id = ? AND inclusion_state = ? AND idx = ? AND variant = ? LIMIT 1`})
)

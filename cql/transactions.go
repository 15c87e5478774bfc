package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Transactions (seed: Transactions). Variants: 'input' (idx = input index, data = the
// UTXO input), 'output' (idx = output index, data = the output), 'unlock' (stored under
// the SPENT output's transaction ID and index: data = spending tx ID, input index, unlock),
// so one query returns an output and the unlock that spent it.
var transactionOwn = []string{"transaction_id", "idx", "variant", "message_id", "data"}

var (
	InsertTransactionRow = def(transactions, "transactions.insert",
		"store one input, output or unlock row of a referenced transaction",
		insert(transactions, join(transactionOwn, keys("milestone_index", "inclusion_state"))...))
	InsertUnreferencedTransactionRow = def(transactions, "transactions.insert_unreferenced",
		"store one row of a transaction whose message is not referenced yet",
		insert(transactions, join(transactionOwn, keys("est_milestone_index"))...))
	TransactionOutputAndUnlock = def(transactions, "transactions.output_and_unlock",
		"get an output and the unlock that spent it, by output ID (seed select 1)",
		from(transactions, "transaction_id", "idx").Where(qb.InLit("variant", "('output', 'unlock')")).
			Columns("variant", "message_id", "data", "inclusion_state"))
	TransactionRows = def(transactions, "transactions.by_id", "get every row of a transaction (seed select 2)",
		transactions.SelectBuilder("idx", "variant", "message_id", "data", "inclusion_state", "milestone_index"))
	// IncludedMessage is bound to the transaction's own input 0 (idx 0, variant 'input'),
	// not any row: unlock rows are filed under the SPENT output's transaction ID, so a
	// genesis ID would otherwise find the message that spent it.
	IncludedMessage = def(transactionsByState, "transactions_by_state.included_message",
		"find the message that included a transaction (seed view select)",
		from(transactionsByState, "transaction_id", "inclusion_state", "idx", "variant").Columns("message_id").Limit(1))
)

package cql

import "github.com/scylladb/gocqlx/v2/qb"

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
	InsertTransactionRow = insert(transactions, Statement{Name: "transactions.insert", InUse: true,
		Pattern: "store one input, output or unlock row of a referenced transaction"}, transactionRow)
	InsertUnreferencedTransactionRow = insert(transactions, Statement{Name: "transactions.insert_unreferenced",
		InUse: true, Pattern: "store one row of a transaction whose message is not referenced yet"},
		unreferencedTransaction)
	TransactionOutputAndUnlock = query(transactions, Statement{Name: "transactions.output_and_unlock", InUse: true,
		Pattern: "get an output and the unlock that spent it, by output ID (seed select 1)"},
		outputAndUnlock, from(transactions, "transaction_id", "idx").Where(qb.InLit("variant", "('output', 'unlock')")))
	TransactionRows = query(transactions, Statement{Name: "transactions.by_id", InUse: true,
		Pattern: "get every row of a transaction (seed select 2)"}, transactionRows, transactions.SelectBuilder())
	// IncludedMessage is bound to the transaction's own input 0 (idx 0, variant 'input'),
	// not any row: unlock rows are filed under the SPENT output's transaction ID, so a
	// genesis ID would otherwise find the message that spent it.
	IncludedMessage = define(transactionsByState, Statement{Name: "transactions_by_state.included_message", InUse: true,
		Pattern: "find the message that included a transaction (seed view select)"},
		from(transactionsByState, "transaction_id", "inclusion_state", "idx", "variant").Columns("message_id").Limit(1))
)

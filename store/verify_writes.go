package store

import "github.com/stardust-indexer/stardust-indexer/cql"

// What `indexer verify` (package verify) learns of a write: whether its row can be read
// back, whether it deletes, the table's key and the delete undoing an unspent row. Verify
// sees writes through these, never through their CQL statements.

// Checked reports whether the row w writes can be read back (WrittenRow).
func (w Write) Checked() bool { return cql.RowCheck(w.stmt) != nil }

// Deletes reports whether w deletes its row.
func (w Write) Deletes() bool { return w.stmt.Kind == cql.Delete }

// PrimaryKey is a table's primary key columns, in the order KeyArgs gives their values.
func PrimaryKey(table string) []string { return cql.PrimaryKey(table) }

// UnspentRemoval is the delete undoing the unspent row w inserts (by output or by
// address); ok is false for any other write.
func UnspentRemoval(w Write) (del Write, ok bool) {
	stmt := map[*cql.Statement]*cql.Statement{cql.InsertUnspent: cql.DeleteUnspent,
		cql.InsertUnspentByAddress: cql.DeleteUnspentByAddress}[w.stmt]
	if stmt == nil {
		return Write{}, false
	}
	key, _ := KeyArgs(w)
	return Write{stmt: stmt, Args: key, TS: w.TS}, true
}

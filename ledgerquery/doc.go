// Package ledgerquery answers TIP-26 (inx-indexer) queries over the ledger-state tables:
// which partitions to read for a filter, the filter itself applied to a row, the merge
// of several sorted streams (kinds, roles) into one TIP-26 order with a bounded read
// budget per page, and the TIP-26 cursor. It reads through a Reader, so the planning
// and merging are tested without a database and served over the store.
package ledgerquery

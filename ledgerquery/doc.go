// Package ledgerquery answers TIP-26 (inx-indexer) queries over the ledger-state tables,
// whole: Answer reads the ledger's coverage, plans the query (the streams of each
// address-like condition, the one whose partitions by the address hints are fewest, or
// without one every unspent output of the kinds over the covered partitions), applies
// the filter to each row, merges the sorted streams (kinds, roles) into one TIP-26 order
// with a bounded read budget per page, and mints the TIP-26 cursor. It reads the store
// through Reader, which *store.Store is, so the planning and merging are tested with a
// fake one and no database.
package ledgerquery

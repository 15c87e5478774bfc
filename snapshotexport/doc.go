// Package snapshotexport writes a keyspace's ledger as a Hornet full snapshot file
// (`indexer export -snapshot`, docs/snapshots.md "Export"): it reads the ledger through
// store's methods and writes the file with source/snapshot's Writer. It is a tool above
// the store, as verify and archive are, so that the snapshot format's package stays a
// source that imports neither store nor cql.
package snapshotexport

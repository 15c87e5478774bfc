// Package bootstrap loads the whole ledger from Hornet snapshot files (TIP-35): a full
// snapshot, rolled back from its ledger index to its target index, then an optional
// delta snapshot applied forward. It checks the files through before it writes
// anything (format, network, every output, duplicate IDs, the token supply, the diffs'
// order, signatures and ledger effects), then writes the unspent outputs at the last
// milestone the files reach, and last the keyspace's ledger_bootstrap row.
//
// Memory stays bounded as the files grow: the output list is read three times as a
// stream (validate, check, write) and only the outputs the milestone diffs name are
// held, with a Bloom filter of about two bytes per output for the duplicate check.
package bootstrap

// Package node reads a real Stardust network (Shimmer, IOTA, a private Hornet network)
// from a node's core REST API (TIP-25, /api/core/v2, as Hornet serves it).
//
// For milestone N it fetches the milestone in binary, walks the milestone's cone from
// its parents through block metadata down to blocks earlier milestones referenced,
// fetches the cone's blocks in binary (so stored bytes and IDs are the node's), orders
// them in white-flag order (TIP-2), and derives the ledger changes from the included
// transactions, checked against the node's utxo-changes. Outputs spent in N but created
// before the milestones this source has read come from the keyspace when it holds their
// creation (Config.Created), else from /outputs/{id}; the node's answer must agree with
// the keyspace's (ErrCreationMismatch), since nothing signs an output's metadata. The
// indexer then verifies the milestone (signatures, both Merkle roots, the ledger) before
// it writes.
//
// Requests are bounded (Config.Concurrency), retried with backoff on timeouts, 5xx and
// lost connections, and refused (source.Refusal) on 4xx and malformed answers. The node
// API offers no list of blocks not yet referenced: Unreferenced returns none.
package node

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
// lost connections, and refused (source.Refusal) on 4xx and malformed answers.
//
// The REST API offers no list of blocks not yet referenced; the node's event API (TIP-28
// over MQTT, Config.Events, Source.Listen) announces them, and confirmed milestones. Events
// are hints: a confirmed milestone wakes the follower (NewMilestones), announced blocks are
// what Unreferenced returns until a milestone references them; what is confirmed is only
// ever read over REST and verified.
//
// With several nodes (Config.URLs), all of one network (ErrMixedNetworks), every request
// of a milestone goes to one node, chosen round-robin among the healthy nodes that
// confirmed it, and the milestone is verified (chain.Verify) before it is returned, so a
// failure is that node's: a node unavailable, refusing or answering what fails
// verification is benched (2s doubling to 5min) and the milestone read from the next. The
// source fails a milestone only when every node failed it. Latest is the highest
// confirmed milestone of the healthy nodes, Oldest the lowest oldest one they hold.
package node

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
// Requests are bounded per node by a limit that adapts below Config.Concurrency (the
// controller of package adaptive: it climbs while more requests in flight give more
// answers per second and steps down on 429s, 5xx, timeouts and lost connections), retried
// with backoff on those, and refused (source.Refusal) on 4xx and malformed answers. A
// cone is walked breadth first without waiting for whole levels, a milestone's
// utxo-changes and an output's metadata are asked while the rest is, and the next
// milestones are read ahead (Config.ReadAhead) while the asker waits, so that a node far
// away costs throughput only where its answers per second do.
//
// The REST API offers no list of blocks not yet referenced; the node's event API (TIP-28
// over MQTT, Config.Events, Source.Listen) announces them, and confirmed milestones. Events
// are hints: a confirmed milestone wakes the follower (NewMilestones), announced blocks are
// what Unreferenced returns until a milestone references them; what is confirmed is only
// ever read over REST and verified.
//
// With several nodes (Config.URLs), all of one network (ErrMixedNetworks), every request
// of a milestone goes to one node, chosen round-robin among the healthy nodes that
// confirmed it, and the milestone is verified (chain.VerifySigned) before it is returned, so a
// failure is that node's: a node unavailable, refusing or answering what fails
// verification is benched (2s doubling to 5min) and the milestone read from the next; so
// is a node whose answers take far longer than another's (at least 30s). A milestone
// not read within the hedge delay (Config.HedgeAfter) is also asked from the next node,
// and the first answer that passes verification is used. /info has its own deadline
// (Config.InfoTimeout), so a hung node holds up no status poll. The source fails a
// milestone only when every node failed it. Latest is the highest
// confirmed milestone of the healthy nodes, Oldest the lowest oldest one they hold.
package node

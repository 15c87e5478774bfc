// Package chain holds the domain types of a Stardust-style (IOTA) ledger as the
// indexer sees it: IDs, addresses, outputs, payloads, messages (the final
// protocol calls them blocks; the seed schema says "messages" and so do we),
// confirmed milestones, and a strict, deterministic binary codec for them.
//
// The codec is this project's own format, not the node's wire format: it is
// what the database stores as blobs and what message IDs are hashed over.
package chain

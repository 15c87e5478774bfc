// Package chain holds the domain types of the Stardust ledger (IOTA, Shimmer) as the
// indexer sees it: IDs, addresses, outputs, payloads, messages (the protocol calls them
// blocks; the seed schema says "messages" and so do we), confirmed milestones, and the
// protocol's own binary serialization of them (TIP-18, 20, 23, 24, 29, 34).
//
// Decoding is strict: every failure is a *ValidationError naming the field. Decoding
// then encoding gives the same bytes, so message, transaction, output and milestone IDs
// are the network's. Chrysalis ("legacy") outputs, which Stardust blocks cannot carry,
// are encoded in their Chrysalis layout when stored on their own.
package chain

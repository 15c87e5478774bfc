// Package analytics computes the seed schema's analytics tables.
//
// Per milestone, as part of the milestone's own write set (Rows, registered with
// ingest.Pipeline.AddRows, so the rows are written before the milestone's sync row, with
// its chain-order timestamp, and a replay rewrites the same values):
//   - ms_analytics: message_count, transaction_count, transferred_tokens;
//   - address_analytics: per address, the tokens it sent and received;
//   - metrics_cache: the milestone's UTC date's sets of addresses that sent, received,
//     sent or received, and of tags used.
//
// Per UTC date of the chain (milestone timestamps, not the wall clock), by a daily job
// (RunDay) that only counts what the milestones wrote: date_cache holds the date's first
// and last milestone and daily_analytics the sizes of its address sets. A date is
// computed only when it is complete; a Scheduler runs the job once per date across
// nodes, under a lease.
//
// Definitions (docs/analytics.md has the same, with examples):
//   - owner of an output (Owner): the address that must unlock it: the address unlock
//     condition of basic, NFT and legacy outputs, the state controller of an alias, the
//     immutable alias address of a foundry.
//   - message_count: every message the milestone referenced, whatever its inclusion
//     state, the milestone message included (the milestone's messages_by_milestone rows).
//   - transaction_count: referenced messages whose transaction was included (applied).
//   - transferred_tokens: the amounts of the outputs created by the milestone's included
//     transactions whose owner is not an owner of any input of the same transaction;
//     change (an output back to an input's owner) is not a transfer.
//   - sent (per address): the amounts of the outputs it owned that the milestone consumed;
//     received: the amounts of the outputs it owns that the milestone created, change and
//     genesis outputs included. Only addresses with a non-zero sent or received get a row.
//   - daily sets: an address is in 'sent' / 'received' of date D if it sent / received in
//     any milestone of D, in 'sent_or_received' if either; a tag is in ('index', 'used')
//     if a referenced message of D carries it (its tagged data or its transaction's).
package analytics

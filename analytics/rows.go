package analytics

import (
	"maps"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Rows is the analytics part of a milestone's write set; register it with
// ingest.Pipeline.AddRows. Every row carries the milestone's chain-order timestamp and
// is a function of the milestone alone, so a replay rewrites exactly the same rows, and
// the metrics_cache rows are set members: writing one twice is writing it once.
func Rows(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write {
	out := st.AnalyticsWrites(Summarize(cm).rows())
	out = append(out, activityWrites(cm, st)...)
	return append(out, ledgerDeltaWrites(cm, st)...)
}

// rows is what the summary's rows hold: the addresses that moved tokens and the tags
// used, each in a fixed order so that a replay sends the very same batches.
func (s *Summary) rows() store.MilestoneAnalytics {
	a := store.MilestoneAnalytics{Index: s.Index, Date: s.Date, Messages: s.Messages, Transactions: s.Transactions,
		Transferred: s.Transferred, Tags: slices.Sorted(maps.Keys(s.Tags))}
	for _, addr := range s.addresses() {
		f := s.Flows[addr]
		a.Flows = append(a.Flows, store.AddressFlow{Address: addr, Sent: f.Sent, Received: f.Received})
	}
	return a
}

// addresses lists the addresses that moved tokens, sorted by their bytes.
func (s *Summary) addresses() []chain.Address {
	out := make([]chain.Address, 0, len(s.Flows))
	for a, f := range s.Flows {
		if f.Sent > 0 || f.Received > 0 {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b chain.Address) int { return slices.Compare(a.Bytes(), b.Bytes()) })
	return out
}

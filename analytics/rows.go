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
// the metrics_cache rows are set members: writing one twice is writing it once. Rows
// writes everything: RowsWith(Options{Families: true}).
func Rows(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write {
	return rowsOf(cm, st, Options{Families: true})
}

// Options choose the analytics rows of a milestone.
type Options struct {
	// Families adds Chronicle's families' rows: the activity families and the ledger
	// family deltas. Without them only the summary rows (ms_analytics,
	// address_analytics, metrics_cache) are written.
	Families bool
}

// RowsWith is Rows with a choice of rows, to register with ingest.Pipeline.AddRows.
func RowsWith(opts Options) func(*chain.ConfirmedMilestone, *store.Store) []store.Write {
	return func(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write { return rowsOf(cm, st, opts) }
}

func rowsOf(cm *chain.ConfirmedMilestone, st *store.Store, opts Options) []store.Write {
	out := st.AnalyticsWrites(Summarize(cm).rows())
	if !opts.Families {
		return out
	}
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

package analytics

import (
	"math"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Rows is the analytics part of a milestone's write set; register it with
// ingest.Pipeline.AddRows. Every row carries the milestone's chain-order timestamp and
// is a function of the milestone alone, so a replay rewrites exactly the same rows, and
// the metrics_cache rows are set members: writing one twice is writing it once.
func Rows(cm *chain.ConfirmedMilestone, st *store.Store) []store.Write {
	return Summarize(cm).writes(st.RangeID(cm.Index), st.HRP())
}

// writes lists the rows; addresses are stored in bech32 under hrp, as the outputs tables
// store them.
func (s *Summary) writes(rangeID int32, hrp string) []store.Write {
	ts := store.Timestamp(s.Index, store.PhaseConfirmed)
	index := int32(s.Index)
	out := []store.Write{{St: cql.InsertMsAnalytics, TS: ts,
		Args: []any{rangeID, index, int32(s.Messages), int32(s.Transactions), bigint(s.Transferred)}}}
	metric := s.metricWriter(ts)
	for _, a := range s.addresses() {
		f, addr := s.Flows[a], a.Bech32(hrp)
		out = append(out, store.Write{St: cql.InsertAddressAnalytics, TS: ts,
			Args: []any{addr, index, bigint(f.Sent), bigint(f.Received)}})
		out = append(out, metric("address", "sent_or_received", addr))
		if f.Sent > 0 {
			out = append(out, metric("address", "sent", addr))
		}
		if f.Received > 0 {
			out = append(out, metric("address", "received", addr))
		}
	}
	for _, tag := range sortedKeys(s.Tags) {
		out = append(out, metric("index", "used", tag))
	}
	return out
}

// metricWriter makes metrics_cache inserts into the milestone's date partition; they
// share its partition key, so the store sends them as single-partition batches.
func (s *Summary) metricWriter(ts int64) func(variant, metric, value string) store.Write {
	partition := "metrics_cache/" + s.Date.Format(DateLayout)
	return func(variant, metric, value string) store.Write {
		return store.Write{St: cql.InsertMetric, TS: ts, Partition: partition,
			Args: []any{s.Date, variant, metric, value}}
	}
}

// addresses lists the addresses that moved tokens, in a fixed order so that a replay
// sends the very same batches.
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

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// bigint stores a token amount in a bigint column; amounts are far below 2^63 (the total
// supply is), the clamp only keeps a corrupt value from turning negative.
func bigint(v uint64) int64 { return int64(min(v, math.MaxInt64)) }

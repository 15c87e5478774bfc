package store

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// MilestoneAnalytics is what one milestone's analytics rows hold (package analytics
// computes it from the milestone).
type MilestoneAnalytics struct {
	Index        uint32
	Date         time.Time // the UTC date of the milestone's timestamp
	Messages     int
	Transactions int
	Transferred  uint64
	Flows        []AddressFlow // the addresses that moved tokens, in the order their rows are written
	Tags         []string      // the tags used (TagText), in the order their rows are written
}

// AddressFlow is what one address sent and received in one milestone.
type AddressFlow struct {
	Address        chain.Address
	Sent, Received uint64
}

// AnalyticsWrites are a milestone's analytics rows, with its chain-order timestamp:
// ms_analytics, address_analytics (addresses in bech32 under the network's HRP, as the
// output tables store them) and its date's metrics_cache set members, which share the
// date's partition key, so Apply sends them as single-partition batches.
func (st *Store) AnalyticsWrites(a MilestoneAnalytics) []Write {
	ts := Timestamp(a.Index, PhaseConfirmed)
	index, hrp := int32(a.Index), st.HRP()
	out := []Write{{stmt: cql.InsertMsAnalytics, TS: ts,
		Args: []any{st.RangeID(a.Index), index, int32(a.Messages), int32(a.Transactions), amount(a.Transferred)}}}
	partition := "metrics_cache/" + a.Date.Format(DateLayout)
	metric := func(variant, metric, value string) Write {
		return Write{stmt: cql.InsertMetric, TS: ts, Partition: partition, Args: []any{a.Date, variant, metric, value}}
	}
	for _, f := range a.Flows {
		addr := f.Address.Bech32(hrp)
		out = append(out, Write{stmt: cql.InsertAddressAnalytics, TS: ts,
			Args: []any{addr, index, amount(f.Sent), amount(f.Received)}})
		out = append(out, metric("address", "sent_or_received", addr))
		if f.Sent > 0 {
			out = append(out, metric("address", "sent", addr))
		}
		if f.Received > 0 {
			out = append(out, metric("address", "received", addr))
		}
	}
	for _, tag := range a.Tags {
		out = append(out, metric("index", "used", tag))
	}
	return out
}

// WriteDateCache records the first and last milestone of a UTC date.
func (st *Store) WriteDateCache(ctx context.Context, day time.Time, ms Range) error {
	return st.s.Exec(ctx, cql.InsertDateCache, day, int32(ms.From), int32(ms.To))
}

// WriteDailyStat stores a UTC date's address counts.
func (st *Store) WriteDailyStat(ctx context.Context, day time.Time, total, send, recv int) error {
	return st.s.Exec(ctx, cql.InsertDailyAnalytics, int32(day.Year()), day, int32(total), int32(send), int32(recv))
}

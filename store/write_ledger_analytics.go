package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Ledger analytics (migration 000009): a ledger index's richest addresses and token
// distribution, written by the analytics worker, and the indexer_meta concern naming the
// newest ledger index computed.

// LedgerAnalyticsConcern is the indexer_meta row whose watermark is the newest ledger
// index with computed ledger analytics, and whose value is its LedgerSummary (JSON).
const LedgerAnalyticsConcern = "ledger_analytics"

// RichAddress is one rank of a richest list.
type RichAddress struct {
	LedgerIndex int32  `cql:"ledger_index"`
	Rank        int32  `cql:"rank"` // 1 is the richest
	Address     string `cql:"address"`
	Balance     int64  `cql:"balance"`
}

// DistributionBucket is the addresses whose balance lies in [10^Magnitude, 10^(Magnitude+1)).
type DistributionBucket struct {
	LedgerIndex  int32 `cql:"ledger_index"`
	Magnitude    int32 `cql:"magnitude"`
	AddressCount int64 `cql:"address_count"`
	TotalBalance int64 `cql:"total_balance"`
}

// LedgerSummary describes one computed ledger index.
type LedgerSummary struct {
	LedgerIndex uint32    `json:"ledgerIndex"`
	Timestamp   int64     `json:"milestoneTimestamp"` // of the ledger index: TIP-18's time
	NewestAtEnd uint32    `json:"newestAtEnd"`        // newest synced milestone when the scan ended
	Addresses   int       `json:"addresses"`          // addresses with a balance
	Outputs     int       `json:"outputs"`            // unspent outputs counted
	ComputedAt  time.Time `json:"computedAt"`
	Took        string    `json:"took"`
}

// WriteLedgerAnalytics stores a ledger index's richest list and distribution, replacing
// any earlier computation of the same index (its partitions are deleted at an older
// client timestamp than the new rows), then advances the concern to the index.
func (st *Store) WriteLedgerAnalytics(ctx context.Context, sum LedgerSummary, rich []RichAddress,
	dist []DistributionBucket, node string) error {
	ts := time.Now().UnixMicro()
	li := int32(sum.LedgerIndex)
	writes := []Write{{stmt: cql.DeleteRichest, Args: []any{li}, TS: ts - 1},
		{stmt: cql.DeleteDistribution, Args: []any{li}, TS: ts - 1}}
	if err := st.Apply(ctx, writes, 2); err != nil {
		return err
	}
	writes = writes[:0]
	for i := range rich {
		rich[i].LedgerIndex = li
		writes = append(writes, Write{stmt: cql.InsertRichest, Args: binds(cql.InsertRichest, &rich[i]),
			Partition: fmt.Sprintf("richest_addresses/%d", li), TS: ts})
	}
	for i := range dist {
		dist[i].LedgerIndex = li
		writes = append(writes, Write{stmt: cql.InsertDistribution, Args: binds(cql.InsertDistribution, &dist[i]),
			Partition: fmt.Sprintf("token_distribution/%d", li), TS: ts})
	}
	if err := st.Apply(ctx, writes, 8); err != nil {
		return err
	}
	value, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	_, err = st.AdvanceWatermark(ctx, LedgerAnalyticsConcern, int64(sum.LedgerIndex), string(value), node)
	return err
}

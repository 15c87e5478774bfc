package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// LatestLedgerAnalytics reads the newest computed ledger index's summary; ErrNotFound
// before the first computation.
func (st *Store) LatestLedgerAnalytics(ctx context.Context) (LedgerSummary, error) {
	value, watermark, _, err := st.Meta(ctx, LedgerAnalyticsConcern)
	if err != nil {
		return LedgerSummary{}, err
	}
	var sum LedgerSummary
	if err := json.Unmarshal([]byte(value), &sum); err != nil {
		return LedgerSummary{}, fmt.Errorf("indexer_meta %s: %w", LedgerAnalyticsConcern, err)
	}
	sum.LedgerIndex = uint32(watermark)
	return sum, nil
}

// RichestAddresses reads the first top ranks of a ledger index's richest list (none when
// the index was not computed).
func (st *Store) RichestAddresses(ctx context.Context, ledgerIndex uint32, top int) ([]RichAddress, error) {
	return cql.Records[RichAddress](ctx, st.s, cql.RichestTop, []any{int32(ledgerIndex), top})
}

// TokenDistribution reads a ledger index's distribution, smallest magnitude first (none
// when the index was not computed).
func (st *Store) TokenDistribution(ctx context.Context, ledgerIndex uint32) ([]DistributionBucket, error) {
	return cql.Records[DistributionBucket](ctx, st.s, cql.Distribution, []any{int32(ledgerIndex)})
}

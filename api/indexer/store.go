package indexer

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Store is what the TIP-26 routes read of the store: ledgerquery's reads for the lists,
// output versions for the chain look-ups; *store.Store in the server's wiring.
type Store interface {
	ledgerquery.Reader
	LedgerCoverage(ctx context.Context) (store.LedgerCoverage, error)
	OutputVersions(ctx context.Context, kind chain.OutputKind, key string, req store.PageRequest) ([]store.OutputRow, []byte, error)
}

var _ Store = (*store.Store)(nil)

package indexer

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Tip26Budget bounds one TIP-26 page's reads (see docs/indexer-api.md): rows read and
// partitions opened over all the streams it merges. A page of a query the rows of
// which rarely match stops there, with a cursor, rather than scanning on: TIP-26
// clients follow cursors until there is none.
var Tip26Budget = ledgerquery.Budget{Rows: 10000, Partitions: 48}

// OutputsJSON is a TIP-26 answer, with the ledger's coverage.
type OutputsJSON struct {
	LedgerIndex uint32   `json:"ledgerIndex"`
	Cursor      string   `json:"cursor,omitempty"`
	Items       []string `json:"items"`
	// SpentPartial: includeSpent=true, and spent outputs are missing (see ledgerquery.Result).
	SpentPartial bool `json:"spentPartial,omitempty"`
	rest.WithCoverage
}

// Tip26Query is one oldest-first page of the unspent outputs of kinds that f lets
// through.
func (s *API) Tip26Query(ctx context.Context, kinds []chain.OutputKind, f *ledgerquery.Filter, start *store.Position,
	size int, budget ledgerquery.Budget) (*OutputsJSON, error) {
	return s.Tip26Answer(ctx, ledgerquery.Request{Kinds: kinds, Filter: *f, Start: start, PageSize: size,
		Budget: budget})
}

// Tip26Answer is one page of a TIP-26 query, as ledgerquery answers it over the store,
// in its JSON form.
func (s *API) Tip26Answer(ctx context.Context, req ledgerquery.Request) (*OutputsJSON, error) {
	res, err := ledgerquery.Answer(ctx, s.st, req)
	var above *ledgerquery.AboveLedgerIndexError
	if errors.As(err, &above) {
		return nil, rest.BadParam("ledgerIndex", "%d is above the ledger index, %d", above.Asked, above.Index)
	} else if err != nil {
		return nil, err
	}
	return &OutputsJSON{LedgerIndex: res.LedgerIndex, Cursor: res.Next, Items: res.Items, SpentPartial: res.SpentPartial,
		WithCoverage: rest.WithCoverage{Coverage: rest.CoverageOf(res.Coverage)}}, nil
}

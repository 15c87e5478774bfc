package api

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// tip26Budget bounds one TIP-26 page's reads (see docs/indexer-api.md): rows read and
// partitions opened over all the streams it merges. A page of a query the rows of
// which rarely match stops there, with a cursor, rather than scanning on: TIP-26
// clients follow cursors until there is none.
var tip26Budget = ledgerquery.Budget{Rows: 10000, Partitions: 48}

// outputsJSON is a TIP-26 answer, with the ledger's coverage.
type outputsJSON struct {
	LedgerIndex uint32   `json:"ledgerIndex"`
	Cursor      string   `json:"cursor,omitempty"`
	Items       []string `json:"items"`
	// SpentPartial: includeSpent=true, and spent outputs are missing (see ledgerquery.Result).
	SpentPartial bool `json:"spentPartial,omitempty"`
	withCoverage
}

// tip26List serves a TIP-26 list route over the kinds it covers, with the parameters P
// declares, in the order the request asks for (sort, on the routes that take it).
func tip26List[P any, R interface {
	*P
	tip26Request
}](s *indexerAPI, kinds ...chain.OutputKind) func(context.Context, *input, *P) (any, error) {
	return func(ctx context.Context, _ *input, p *P) (any, error) {
		r := R(p)
		tail, order := r.tail(), r.order()
		newest, err := order.newest(tail.Cursor)
		if err != nil {
			return nil, err
		}
		start, size := tail.page()
		f := r.filter()
		f.CreatedBefore, f.CreatedAfter = unix(tail.CreatedBefore), unix(tail.CreatedAfter)
		return s.tip26Answer(ctx, ledgerquery.Request{Kinds: kinds, Filter: f, Start: start,
			PageSize: size, Budget: tip26Budget, Newest: newest, IncludeSpent: order.includeSpent()})
	}
}

// tip26Query is one oldest-first page of the unspent outputs of kinds that f lets
// through.
func (s *indexerAPI) tip26Query(ctx context.Context, kinds []chain.OutputKind, f *ledgerquery.Filter, start *store.Position,
	size int, budget ledgerquery.Budget) (*outputsJSON, error) {
	return s.tip26Answer(ctx, ledgerquery.Request{Kinds: kinds, Filter: *f, Start: start, PageSize: size,
		Budget: budget})
}

// tip26Answer is one page of a TIP-26 query, as ledgerquery answers it over the store,
// in its JSON form.
func (s *indexerAPI) tip26Answer(ctx context.Context, req ledgerquery.Request) (*outputsJSON, error) {
	res, err := ledgerquery.Answer(ctx, s.st, req)
	if err != nil {
		return nil, err
	}
	return &outputsJSON{LedgerIndex: res.LedgerIndex, Cursor: res.Next, Items: res.Items, SpentPartial: res.SpentPartial,
		withCoverage: withCoverage{coverageOf(res.Coverage)}}, nil
}

package api

import (
	"context"
	"errors"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// tip26Budget bounds one TIP-26 page's reads (see docs/indexer-api.md): rows read and
// partitions opened over all the streams it merges. A page of a query the rows of
// which rarely match stops there, with a cursor, rather than scanning on: TIP-26
// clients follow cursors until there is none.
var tip26Budget = ledgerquery.Budget{Rows: 10000, Partitions: 48}

// tip26Fetch is the most rows per read (ledgerquery grows its reads up to it): a read
// costs a round trip, rows cost little once a page must skip many.
const tip26Fetch = 1000

// outputsJSON is a TIP-26 answer, with the ledger's coverage.
type outputsJSON struct {
	LedgerIndex uint32   `json:"ledgerIndex"`
	Cursor      string   `json:"cursor,omitempty"`
	Items       []string `json:"items"`
	withCoverage
}

// tip26List serves a TIP-26 list route over the kinds it covers.
func (s *Server) tip26List(kinds ...chain.OutputKind) func(context.Context, *input) (any, error) {
	return func(ctx context.Context, in *input) (any, error) {
		start, size := tip26Page(in)
		return s.tip26Query(ctx, kinds, tip26Filter(in), start, size, tip26Budget)
	}
}

// tip26Query reads one page of the unspent outputs of kinds that f lets through. The
// ledger coverage (the answer's ledger index and the partitions of every unspent output
// of a kind, store.LedgerCoverage) and the partitions of the address-like conditions
// (addresses_hints) are read at once: neither needs the other.
func (s *Server) tip26Query(ctx context.Context, kinds []chain.OutputKind, f *ledgerquery.Filter, start *store.Position,
	size int, budget ledgerquery.Budget) (*outputsJSON, error) {
	var (
		cov      store.LedgerCoverage
		anchored []ledgerquery.Source
		anchors  bool
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { cov, err = s.st.LedgerCoverage(gctx); return err })
	if !f.Empty() {
		g.Go(func() (err error) { anchored, anchors, err = s.anchoredSources(gctx, kinds, f); return err })
	}
	if err := g.Wait(); errors.Is(err, store.ErrNothingSynced) {
		return &outputsJSON{Items: []string{}, withCoverage: withCoverage{coverageOf(cov)}}, nil
	} else if err != nil {
		return nil, err
	}
	f.LedgerIndex = cov.Index
	if f.Empty() {
		return &outputsJSON{LedgerIndex: cov.Index, Items: []string{}, withCoverage: withCoverage{coverageOf(cov)}}, nil
	}
	sources := anchored
	if !anchors { // every unspent output of the kinds, partition by partition over the covered ones
		for _, k := range kinds {
			sources = append(sources, ledgerquery.Source{Stream: ledgerquery.Stream{Kind: k.String()}, Partitions: cov.Partitions})
		}
	}
	page, err := ledgerquery.Read(ctx, &ledgerReader{s.st}, ledgerquery.Query{Sources: sources, Span: f.Span(start),
		Match: f.Match, PageSize: size, Fetch: tip26Fetch, Budget: budget})
	if err != nil {
		return nil, err
	}
	out := &outputsJSON{LedgerIndex: cov.Index, Items: make([]string, 0, len(page.Items)),
		withCoverage: withCoverage{coverageOf(cov)}}
	for _, r := range page.Items {
		out.Items = append(out.Items, r.OutputID)
	}
	if page.Next != nil {
		out.Cursor = ledgerquery.EncodeCursor(*page.Next, size)
	}
	return out, nil
}

// anchoredSources plans the streams to merge: those of the address-like condition whose
// partitions (by addresses_hints) are fewest. anchored is false when f has no such
// condition (the query then reads every unspent output of the kinds).
func (s *Server) anchoredSources(ctx context.Context, kinds []chain.OutputKind, f *ledgerquery.Filter) (
	best []ledgerquery.Source, anchored bool, err error) {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	bestCost := -1
	for _, a := range ledgerquery.Anchors(names, f) {
		sources, cost, err := s.anchorSources(ctx, a)
		if err != nil {
			return nil, false, err
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = sources, cost
		}
		if cost == 0 {
			break // nothing names the address so: the answer is empty
		}
	}
	return best, bestCost >= 0, nil
}

// anchorSources reads the partitions of each stream of a (in parallel) and counts them.
func (s *Server) anchorSources(ctx context.Context, a ledgerquery.Anchor) ([]ledgerquery.Source, int, error) {
	parts := make([][]int32, len(a.Streams))
	g, ctx := errgroup.WithContext(ctx)
	for i, st := range a.Streams {
		g.Go(func() (err error) {
			parts[i], err = s.st.AddressRanges(ctx, st.Address, outputKinds[st.Kind], st.Role)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	var out []ledgerquery.Source
	cost := 0
	for i, st := range a.Streams {
		slices.Sort(parts[i])
		cost += len(parts[i])
		if len(parts[i]) > 0 {
			out = append(out, ledgerquery.Source{Stream: st, Partitions: parts[i]})
		}
	}
	return out, cost, nil
}

// outputKinds are the Stardust output kinds by their text in the tables.
var outputKinds = map[string]chain.OutputKind{}

func init() {
	for _, k := range []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT} {
		outputKinds[k.String()] = k
	}
}

// ledgerReader reads the ledger-state tables for ledgerquery.
type ledgerReader struct{ st *store.Store }

func (r *ledgerReader) Rows(ctx context.Context, s ledgerquery.Stream, rng int32, span store.Span,
	req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	if s.Address == "" {
		return r.st.UnspentPage(ctx, s.Kind, rng, span, req)
	}
	return r.st.UnspentByAddressPage(ctx, s.Address, rng, s.Kind, s.Role, span, req)
}

// boundaries caches partition boundaries: a milestone's time never changes.
var boundaries sync.Map // boundaryKey -> int64

type boundaryKey struct {
	st  *store.Store
	rng int32
}

// Boundary is the time of partition rng's first milestone, when it is indexed.
func (r *ledgerReader) Boundary(ctx context.Context, rng int32) (int64, bool, error) {
	if rng <= 0 {
		return 0, false, nil
	}
	key := boundaryKey{r.st, rng}
	if at, ok := boundaries.Load(key); ok {
		return at.(int64), true, nil
	}
	m, err := r.st.Milestone(ctx, uint32(rng)*r.st.ChunkSize)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	boundaries.Store(key, m.Timestamp)
	return m.Timestamp, true, nil
}

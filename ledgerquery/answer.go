package ledgerquery

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// maxFetch is the most rows per read (reads grow up to it, see run.fetch): a read costs
// a round trip, rows cost little once a page must skip many.
const maxFetch = 1000

// Request is one page of a TIP-26 query: the unspent outputs of Kinds that Filter lets
// through, from Start (a cursor's position; nil: the first page), at most PageSize of
// them, read within Budget, in TIP-26 order or (Newest) its reverse. IncludeSpent lists
// the spent outputs too (inx-chronicle's includeSpent): every output created up to the
// ledger index, spent or not. AsOf (nil: the ledger index) asks for the ledger once that
// milestone was applied: the outputs created up to it and not spent by then.
type Request struct {
	Kinds        []chain.OutputKind
	Filter       Filter
	Start        *store.Position
	PageSize     int
	Budget       Budget
	Newest       bool
	IncludeSpent bool
	AsOf         *uint32
}

// Result is one page's answer: the ledger index it is at (the request's AsOf, or the
// ledger index; 0 when nothing is synced), the ledger's coverage there, the output IDs in
// TIP-26 order, and the next page's cursor ("" on the last page; a newest-first page's
// cursor says so). SpentPartial: the request read the spent twin (spent outputs too, or
// an earlier ledger index) and it lacks spends from coverage.Since on (a keyspace
// indexed before it), so outputs are missing; its coverage then is not Complete.
type Result struct {
	LedgerIndex  uint32
	Coverage     store.LedgerCoverage
	Items        []string
	Next         string
	SpentPartial bool
}

// Answer answers one page of a TIP-26 query: it reads the ledger's coverage and the
// partitions of the filter's address-like conditions at once (neither needs the other),
// reads the streams of the cheapest condition (without one, every unspent output of the
// kinds over the covered partitions), and merges them into a page.
func Answer(ctx context.Context, rd Reader, req Request) (Result, error) {
	f := req.Filter
	cov, anchored, ok, err := plan(ctx, rd, req.Kinds, &f)
	if errors.Is(err, store.ErrNothingSynced) && req.AsOf == nil {
		return Result{Coverage: cov, Items: []string{}}, nil
	} else if err != nil && !errors.Is(err, store.ErrNothingSynced) {
		return Result{}, err
	}
	at, past, err := asOf(req.AsOf, &cov)
	if err != nil {
		return Result{}, err
	}
	f.LedgerIndex = at
	if f.Empty() || at == 0 {
		return Result{LedgerIndex: at, Coverage: cov, Items: []string{}}, nil
	}
	sources := anchored
	if !ok {
		sources = everyOutput(req.Kinds, cov.Partitions)
	}
	spentPartial := false
	if req.IncludeSpent || past {
		if sources, spentPartial, err = spentSources(ctx, rd, sources, &cov, &f); err != nil {
			return Result{}, err
		}
	}
	if past {
		sources = createdBy(sources, at, rd.RangeStart)
		if !req.IncludeSpent {
			f.SpentAfter = at
		}
	}
	q := Query{Sources: sources, Span: f.Span(req.Start), Match: f.Match, PageSize: req.PageSize, Fetch: maxFetch,
		Budget: req.Budget}
	var rows PartitionReader = storeRows{rd}
	if req.Newest {
		q.Sources, q.Span, rows = mirrorSources(sources), newestSpan(&f, req.Start), newestRows{rd}
		q.Match = func(r *store.UnspentRow) bool { real := mirrorRow(*r); return f.Match(&real) }
	}
	page, err := Read(ctx, rows, q)
	if err != nil {
		return Result{}, err
	}
	if req.Newest {
		page = unmirror(page)
	}
	res := resultOf(cov, page, req.PageSize, req.Newest)
	res.LedgerIndex, res.SpentPartial = at, spentPartial
	return res, nil
}

// spentSources are sources with their spent twins, for a list of spent outputs too: its
// coverage is not complete when the twin misses spends (partial true), and without a
// bootstrap f leaves out what was created before coverage.Since (see Filter.Since).
func spentSources(ctx context.Context, rd Reader, sources []Source, cov *store.LedgerCoverage, f *Filter) (
	_ []Source, partial bool, err error) {
	if partial, err = SpentMissing(ctx, rd, *cov); err != nil {
		return nil, false, err
	}
	if partial && cov.Complete {
		cov.Complete, cov.Reason = false, store.SpentMissingReason(cov.Since)
	}
	if cov.Bootstrap == nil {
		f.Since = cov.Since
	}
	return withSpent(sources), partial, nil
}

// SpentTwin is the store's answer to whether the spent twin holds a milestone's spends.
type SpentTwin interface {
	SpentTwinHolds(ctx context.Context, index uint32) (bool, error)
}

// SpentMissing reports whether the spent twin may lack spends the ledger covers: it
// holds them from the first milestone written with it on, so it covers the ledger when
// it holds the first milestone whose spends matter (cov.FirstChange). A read of spent
// outputs (a list with includeSpent, a balance at an earlier ledger index) is partial
// when it does.
func SpentMissing(ctx context.Context, rd SpentTwin, cov store.LedgerCoverage) (bool, error) {
	first := cov.FirstChange()
	if first > cov.Index {
		return false, nil // no spend is covered yet
	}
	holds, err := rd.SpentTwinHolds(ctx, first)
	return !holds, err
}

// unmirror is a newest-first page read in mirrored positions, in real ones.
func unmirror(p Page) Page {
	for i := range p.Items {
		p.Items[i] = mirrorRow(p.Items[i])
	}
	if p.Next != nil {
		next := mirror(*p.Next)
		p.Next = &next
	}
	return p
}

// plan reads the ledger's coverage and, unless f lets nothing through, the cheapest
// anchor's sources (ok false: f has no address-like condition), at once.
func plan(ctx context.Context, rd Reader, kinds []chain.OutputKind, f *Filter) (
	cov store.LedgerCoverage, anchored []Source, ok bool, err error) {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { cov, err = rd.LedgerCoverage(gctx); return err })
	if !f.Empty() {
		g.Go(func() (err error) { anchored, ok, err = cheapestAnchor(gctx, rd, kinds, f); return err })
	}
	err = g.Wait()
	return cov, anchored, ok, err
}

// everyOutput are the streams of every unspent output of the kinds, each over the
// covered partitions.
func everyOutput(kinds []chain.OutputKind, partitions []int32) []Source {
	var out []Source
	for _, k := range kinds {
		out = append(out, Source{Stream: Stream{Kind: k.String()}, Partitions: partitions})
	}
	return out
}

// resultOf is a read page's answer at coverage cov.
func resultOf(cov store.LedgerCoverage, page Page, pageSize int, newest bool) Result {
	out := Result{LedgerIndex: cov.Index, Coverage: cov, Items: make([]string, 0, len(page.Items))}
	for _, r := range page.Items {
		out.Items = append(out.Items, r.OutputID)
	}
	if page.Next != nil {
		out.Next = EncodeSortedCursor(*page.Next, pageSize, newest)
	}
	return out
}

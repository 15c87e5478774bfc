package ledgerquery

import (
	"context"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// cheapestAnchor plans the streams to merge: those of the address-like condition whose
// partitions (by addresses_hints) are fewest. anchored is false when f has no such
// condition (the query then reads every unspent output of the kinds).
func cheapestAnchor(ctx context.Context, rd Reader, kinds []chain.OutputKind, f *Filter) (
	best []Source, anchored bool, err error) {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	bestCost := -1
	for _, a := range Anchors(names, f) {
		sources, cost, err := anchorSources(ctx, rd, a)
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
func anchorSources(ctx context.Context, rd Reader, a Anchor) ([]Source, int, error) {
	parts := make([][]int32, len(a.Streams))
	g, ctx := errgroup.WithContext(ctx)
	for i, st := range a.Streams {
		g.Go(func() (err error) {
			parts[i], err = streamRanges(ctx, rd, st)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	var out []Source
	cost := 0
	for i, st := range a.Streams {
		slices.Sort(parts[i])
		cost += len(parts[i])
		if len(parts[i]) > 0 {
			out = append(out, Source{Stream: st, Partitions: parts[i]})
		}
	}
	return out, cost, nil
}

// streamRanges are the partitions in which s's address names outputs of s's kind in
// s's role.
func streamRanges(ctx context.Context, rd Reader, s Stream) ([]int32, error) {
	kind, err := chain.ParseOutputKind(s.Kind)
	if err != nil {
		return nil, fmt.Errorf("partitions of a %s stream: %w", s.Role, err)
	}
	return rd.AddressRanges(ctx, s.Address, kind, s.Role)
}

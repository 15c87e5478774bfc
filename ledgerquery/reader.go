package ledgerquery

import (
	"context"
	"errors"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Reader is the store's side of a TIP-26 query, in the store's own methods: the ledger's
// coverage, the partitions an address names outputs in, the unspent rows of a
// partition (oldest or newest first) and of the spent twin, whether the twin holds a
// milestone's spends, and the milestone times partitions begin at.
type Reader interface {
	LedgerCoverage(ctx context.Context) (store.LedgerCoverage, error)
	AddressRanges(ctx context.Context, address string, kind chain.OutputKind, role string) ([]int32, error)
	UnspentPage(ctx context.Context, kind string, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	UnspentByAddressPage(ctx context.Context, address string, rng int32, kind, role string, span store.Span,
		req store.PageRequest) ([]store.UnspentRow, []byte, error)
	UnspentPageNewest(ctx context.Context, kind string, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	UnspentByAddressPageNewest(ctx context.Context, address string, rng int32, kind, role string, span store.Span,
		req store.PageRequest) ([]store.UnspentRow, []byte, error)
	SpentPage(ctx context.Context, kind string, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	SpentByAddressPage(ctx context.Context, address string, rng int32, kind, role string, span store.Span,
		req store.PageRequest) ([]store.UnspentRow, []byte, error)
	SpentPageNewest(ctx context.Context, kind string, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	SpentByAddressPageNewest(ctx context.Context, address string, rng int32, kind, role string, span store.Span,
		req store.PageRequest) ([]store.UnspentRow, []byte, error)
	SpentTwinHolds(ctx context.Context, index uint32) (bool, error)
	MilestoneTime(ctx context.Context, index uint32) (time.Time, error)
	RangeStart(rng int32) uint32
}

var _ Reader = (*store.Store)(nil)

// storeRows reads a page's partitions through a Reader: a stream with an address from
// unspent_outputs_by_address, one without from unspent_outputs (a Spent stream from
// their spent twins).
type storeRows struct{ rd Reader }

func (r storeRows) Rows(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) (
	[]store.UnspentRow, []byte, error) {
	return readStream(ctx, r.rd, s, false, rng, span, req)
}

type (
	kindPage    = func(context.Context, string, int32, store.Span, store.PageRequest) ([]store.UnspentRow, []byte, error)
	addressPage = func(context.Context, string, int32, string, string, store.Span, store.PageRequest) (
		[]store.UnspentRow, []byte, error)
)

// readStream reads one page of s in real partition rng within a real span, from the
// table s names (by kind or by address, unspent or spent), oldest or newest first.
func readStream(ctx context.Context, rd Reader, s Stream, newest bool, rng int32, span store.Span,
	req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	table, order := index(s.Spent), index(newest)
	if s.Address == "" {
		byKind := [2][2]kindPage{{rd.UnspentPage, rd.UnspentPageNewest}, {rd.SpentPage, rd.SpentPageNewest}}
		return byKind[table][order](ctx, s.Kind, rng, span, req)
	}
	byAddress := [2][2]addressPage{{rd.UnspentByAddressPage, rd.UnspentByAddressPageNewest},
		{rd.SpentByAddressPage, rd.SpentByAddressPageNewest}}
	return byAddress[table][order](ctx, s.Address, rng, s.Kind, s.Role, span, req)
}

// index is 1 for true, 0 for false.
func index(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Boundary is the time of partition rng's first milestone, when it is indexed;
// partition 0 has none (its first milestone, 0, does not exist).
func (r storeRows) Boundary(ctx context.Context, rng int32) (int64, bool, error) {
	if rng <= 0 {
		return 0, false, nil
	}
	at, err := r.rd.MilestoneTime(ctx, r.rd.RangeStart(rng))
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	return at.Unix(), true, nil
}

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
	switch {
	case s.Spent && s.Address == "":
		return r.rd.SpentPage(ctx, s.Kind, rng, span, req)
	case s.Spent:
		return r.rd.SpentByAddressPage(ctx, s.Address, rng, s.Kind, s.Role, span, req)
	case s.Address == "":
		return r.rd.UnspentPage(ctx, s.Kind, rng, span, req)
	}
	return r.rd.UnspentByAddressPage(ctx, s.Address, rng, s.Kind, s.Role, span, req)
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

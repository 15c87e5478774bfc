package ledgerquery

import (
	"context"
	"errors"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Reader is the store's side of a TIP-26 query, in the store's own methods: the ledger's
// coverage, the partitions an address names outputs in, a page of one stream of a
// partition (unspent or of the spent twin, oldest or newest first), whether the twin holds a
// milestone's spends, and the milestone times partitions begin at.
type Reader interface {
	LedgerCoverage(ctx context.Context) (store.LedgerCoverage, error)
	AddressRanges(ctx context.Context, address string, kind chain.OutputKind, role string) ([]int32, error)
	LedgerPage(ctx context.Context, s store.LedgerStream, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
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

// readStream reads one page of s in real partition rng within a real span, from the
// table s names (by kind or by address, unspent or spent), oldest or newest first.
func readStream(ctx context.Context, rd Reader, s Stream, newest bool, rng int32, span store.Span,
	req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	ls := store.LedgerStream{Kind: s.Kind, Address: s.Address, Role: s.Role, Spent: s.Spent, Newest: newest}
	return rd.LedgerPage(ctx, ls, rng, span, req)
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

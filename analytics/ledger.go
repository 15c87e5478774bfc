package analytics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Ledger analytics: the richest addresses and the token distribution of the unspent set,
// computed by a scan of unspent_outputs (every kind, every partition, page by page) that
// sums each owner's balance by the /balance rule (HoldingAt), and stored per ledger index
// (store.WriteLedgerAnalytics). The explorer routes only read what a run stored.
//
// Consistency: the scan runs while ingest goes on. Its ledger index is the API's
// (store.LedgerIndex: the end of the contiguous synced run) when it began, and TIP-18's
// time conditions are judged at that milestone's
// timestamp. Outputs created after the ledger index are left out (their milestone_index
// says so), but an output spent by a milestone indexed while the scan ran is already
// deleted when the scan reaches it: the figures are those of the ledger at the ledger
// index, less the outputs spent between it and the scan's end (NewestAtEnd in the
// summary bounds that window), and less those spent by milestones indexed past a gap.

// LedgerTop is how many ranks a run keeps: the largest top the route serves.
const LedgerTop = 1000

// LedgerLeaseName is the lease one ledger run holds, across nodes.
const LedgerLeaseName = "analytics/ledger"

// DefaultLedgerLeaseTTL outlives a scan of a large ledger; if the holder dies, the next
// run can start after it.
const DefaultLedgerLeaseTTL = time.Hour

// ledgerKinds are the output kinds of the unspent set (legacy outputs are not in it).
var ledgerKinds = []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}

// ledgerScanPage is the page of the scan's reads.
const ledgerScanPage = 1000

// LedgerJob runs ledger analytics under their lease, so that one node at a time scans.
type LedgerJob struct {
	Store    *store.Store
	Owner    string        // this node, as the lease records it
	LeaseTTL time.Duration // default DefaultLedgerLeaseTTL
}

// Run computes and stores the ledger analytics at the ledger index.
// ErrLeaseHeld when another node is running them; store.ErrNothingSynced before any
// milestone is synced.
func (j LedgerJob) Run(ctx context.Context) (store.LedgerSummary, error) {
	return j.run(ctx, time.Time{})
}

// RunDue is Run unless the ledger analytics were computed on now's (UTC) date already
// (ErrDone); the check is made under the lease, so a node that lost the race to one that
// has since finished does not redo them.
func (j LedgerJob) RunDue(ctx context.Context, now time.Time) (store.LedgerSummary, error) {
	return j.run(ctx, now)
}

func (j LedgerJob) run(ctx context.Context, dueOn time.Time) (store.LedgerSummary, error) {
	lease := store.Lease{Name: LedgerLeaseName, Owner: j.Owner, TTL: orDefault(j.LeaseTTL, DefaultLedgerLeaseTTL)}
	release, err := holdLease(ctx, j.Store, lease)
	if err != nil {
		return store.LedgerSummary{}, err
	}
	defer release()
	if !dueOn.IsZero() {
		due, err := ledgerDue(ctx, j.Store, dueOn)
		if err != nil {
			return store.LedgerSummary{}, err
		}
		if !due {
			return store.LedgerSummary{}, ErrDone
		}
	}
	return ComputeLedger(ctx, j.Store, j.Owner)
}

// ComputeLedger scans the unspent set at the ledger index (store.LedgerIndex) and stores the
// richest addresses and the token distribution of that ledger index.
func ComputeLedger(ctx context.Context, st *store.Store, node string) (store.LedgerSummary, error) {
	start := time.Now()
	li, err := st.LedgerIndex(ctx)
	if err != nil {
		return store.LedgerSummary{}, err
	}
	balances, outputs, err := scanBalances(ctx, st, li)
	if err != nil {
		return store.LedgerSummary{}, err
	}
	newest, err := newestSynced(ctx, st, li.Index)
	if err != nil {
		return store.LedgerSummary{}, err
	}
	sum := store.LedgerSummary{LedgerIndex: li.Index, Timestamp: li.Timestamp, NewestAtEnd: newest,
		Addresses: len(balances), Outputs: outputs, ComputedAt: time.Now().UTC()}
	sum.Took = time.Since(start).Round(time.Millisecond).String()
	rich, dist := Richest(balances, LedgerTop), Distribution(balances)
	return sum, st.WriteLedgerAnalytics(ctx, sum, rich, dist, node)
}

// newestSynced is the newest synced milestone, or the ledger index of a keyspace that
// holds only a bootstrap's ledger (nothing synced after it yet).
func newestSynced(ctx context.Context, st *store.Store, ledger uint32) (uint32, error) {
	span, err := st.SyncSpan(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return ledger, nil
	}
	return span.Newest, err
}

// LedgerScanner is what a scan of the ledger reads: the pages of the unspent set and of
// its spent twin, partition by partition; *store.Store is one.
type LedgerScanner interface {
	LedgerPage(ctx context.Context, s store.LedgerStream, rng int32, span store.Span, req store.PageRequest) (
		[]store.UnspentRow, []byte, error)
	RangeID(index uint32) int32
}

// scanBalances sums each owner's total balance over the unspent outputs created at or
// before the ledger index, one goroutine per output kind.
func scanBalances(ctx context.Context, st LedgerScanner, li store.LedgerIndex) (map[string]uint64, int, error) {
	sum := newBalanceSum()
	g, ctx := errgroup.WithContext(ctx)
	for _, kind := range ledgerKinds {
		g.Go(func() error {
			part, n, err := scanKind(ctx, st, kind, li)
			sum.add(part, n)
			return err
		})
	}
	return sum.balances, sum.outputs, g.Wait()
}

// balanceSum adds up the owners' balances that several scans found.
type balanceSum struct {
	mu       sync.Mutex
	balances map[string]uint64
	outputs  int
}

func newBalanceSum() *balanceSum { return &balanceSum{balances: map[string]uint64{}} }

// add adds one scan's balances and the count of the outputs it summed.
func (s *balanceSum) add(part map[string]uint64, outputs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for owner, b := range part {
		s.balances[owner] += b
	}
	s.outputs += outputs
}

// scanKind reads every partition of one kind up to the ledger index's.
func scanKind(ctx context.Context, st LedgerScanner, kind chain.OutputKind, li store.LedgerIndex) (map[string]uint64, int, error) {
	balances, outputs := map[string]uint64{}, 0
	err := eachUnspent(ctx, st, kind, li.Index, func(r *store.UnspentRow) {
		if h := HoldingAt(r, li.Timestamp); h.Owner != "" {
			balances[h.Owner] += h.Total
			outputs++
		}
	})
	return balances, outputs, err
}

// eachUnspent calls fn with every unspent row of kind created at or before milestone m,
// reading the partitions up to m's page by page.
func eachUnspent(ctx context.Context, st LedgerScanner, kind chain.OutputKind, m uint32, fn func(*store.UnspentRow)) error {
	return eachRow(ctx, st, store.LedgerStream{Kind: kind.String()}, m, fn)
}

// eachRow calls fn with every row of stream s (a kind's unspent set or spent twin)
// created at or before milestone m, reading the partitions up to m's page by page.
func eachRow(ctx context.Context, st LedgerScanner, s store.LedgerStream, m uint32, fn func(*store.UnspentRow)) error {
	for rng := int32(0); rng <= st.RangeID(m); rng++ {
		req := store.PageRequest{Size: ledgerScanPage}
		for {
			rows, next, err := st.LedgerPage(ctx, s, rng, store.Span{}, req)
			if err != nil {
				return fmt.Errorf("scanning %s outputs of partition %d: %w", s.Kind, rng, err)
			}
			for i := range rows {
				if uint32(rows[i].MilestoneIndex) <= m { // later ones were created while the scan ran
					fn(&rows[i])
				}
			}
			if len(next) == 0 {
				break
			}
			req.State = next
		}
	}
	return nil
}

// Richest ranks the addresses by balance, richest first (ties by address), and keeps
// the first top.
func Richest(balances map[string]uint64, top int) []store.RichAddress {
	out := make([]store.RichAddress, 0, len(balances))
	for a, b := range balances {
		out = append(out, store.RichAddress{Address: a, Balance: int64(b)})
	}
	slices.SortFunc(out, func(x, y store.RichAddress) int {
		return cmp.Or(cmp.Compare(y.Balance, x.Balance), cmp.Compare(x.Address, y.Address))
	})
	out = out[:min(top, len(out))]
	for i := range out {
		out[i].Rank = int32(i + 1)
	}
	return out
}

// Distribution groups the addresses by the order of magnitude of their balance
// (Chronicle's token distribution: floor(log10(balance))), smallest first. Zero
// balances are no balance and are left out.
func Distribution(balances map[string]uint64) []store.DistributionBucket {
	byMag := map[int32]*store.DistributionBucket{}
	for _, b := range balances {
		if b == 0 {
			continue
		}
		m := Magnitude(b)
		d := byMag[m]
		if d == nil {
			d = &store.DistributionBucket{Magnitude: m}
			byMag[m] = d
		}
		d.AddressCount++
		d.TotalBalance += int64(b)
	}
	out := make([]store.DistributionBucket, 0, len(byMag))
	for _, d := range byMag {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(x, y store.DistributionBucket) int { return cmp.Compare(x.Magnitude, y.Magnitude) })
	return out
}

// Magnitude is floor(log10(b)) for b > 0, in integers (no float rounding at 10^k).
func Magnitude(b uint64) int32 {
	var m int32
	for b >= 10 {
		b /= 10
		m++
	}
	return m
}

// ledgerDue reports whether the ledger analytics were not computed yet on today's
// (wall-clock, UTC) date.
func ledgerDue(ctx context.Context, st *store.Store, now time.Time) (bool, error) {
	sum, err := st.LatestLedgerAnalytics(ctx)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return Day(sum.ComputedAt).Before(Day(now)), nil
}

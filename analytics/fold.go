package analytics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// The ledger families' fold: the figures of milestone m are those of m-1 plus m's
// deltas (ledger_family_deltas, written with m's rows); address_balance moves each
// address m changed from its balance at m-1 (address_balances) to its new one. One node
// folds at a time (the lease), milestone after milestone, up to the first one not
// synced; a milestone's families are written before the watermark moves past it.

// LedgerFoldLeaseName is the lease one fold holds, across nodes.
const LedgerFoldLeaseName = "analytics/ledger-families"

// DefaultFoldLeaseTTL outlives one Run (at most FoldBatch milestones).
const DefaultFoldLeaseTTL = 10 * time.Minute

// FoldBatch bounds the milestones one Run folds by default, so the lease changes hands
// now and then.
const FoldBatch = 1000

// balanceReads bounds the address balance reads (and writes) of a milestone in flight.
const balanceReads = 16

var (
	// ErrNoLedgerDelta: a synced milestone has no delta row, even after its analytics
	// rows were written again (no protocol parameters to price its outputs with).
	ErrNoLedgerDelta = errors.New("milestone has no ledger delta row")
	// ErrNoProtocol: the keyspace records no protocol parameters to price storage with.
	ErrNoProtocol = errors.New("no protocol parameters recorded")
)

// LedgerFold folds the synced milestones' ledger deltas into the ledger families.
type LedgerFold struct {
	Store    *store.Store
	Owner    string        // this node, as the lease and the state record it
	LeaseTTL time.Duration // default DefaultFoldLeaseTTL
	Batch    uint32        // milestones one Run folds at most, default FoldBatch
}

// FoldResult is what one Run folded: milestones From..To (none when To < From), and
// how many of them had no delta row and had their analytics rows written again.
type FoldResult struct {
	From, To   uint32
	State      store.LedgerFamiliesState
	Recomputed int
}

// Run folds the milestones after the watermark, or from the refold the state records
// (RefoldFrom) when that is lower, making the base first when there is no state yet.
// ErrLeaseHeld when another node folds; store.ErrNothingSynced before anything is
// synced or bootstrapped.
func (f LedgerFold) Run(ctx context.Context) (FoldResult, error) { return f.run(ctx, 0) }

// Refold records a refold from milestone from (its predecessor's figures and balances
// stay) and folds from there, through the watermark and on: after the deltas of
// milestones were recomputed. A crash leaves the refold recorded for the next Run.
func (f LedgerFold) Refold(ctx context.Context, from uint32) (FoldResult, error) {
	if from == 0 {
		return FoldResult{}, errors.New("refold from milestone 0: there is no milestone before it")
	}
	return f.run(ctx, from)
}

func (f LedgerFold) run(ctx context.Context, refrom uint32) (FoldResult, error) {
	fd, release, err := f.open(ctx)
	if err != nil {
		return FoldResult{}, err
	}
	defer release()
	if refrom != 0 {
		if err := fd.recordRefold(ctx, refrom); err != nil {
			return FoldResult{}, err
		}
	}
	from := fd.state.Watermark + 1
	if fd.state.RefoldFrom != 0 {
		from = min(from, fd.state.RefoldFrom)
	}
	to, err := syncedRun(ctx, f.Store, from, cmp.Or(f.Batch, FoldBatch))
	if err != nil || to < from {
		return FoldResult{From: from, To: to, State: fd.state}, err
	}
	err = fd.foldRange(ctx, from, to)
	return FoldResult{From: from, To: to, State: fd.state, Recomputed: fd.recomputed}, err
}

// open takes the fold's lease and reads (or makes) the fold's state; release gives the
// lease back.
func (f LedgerFold) open(ctx context.Context) (*folder, func(), error) {
	lease := store.Lease{Name: LedgerFoldLeaseName, Owner: f.Owner, TTL: orDefault(f.LeaseTTL, DefaultFoldLeaseTTL)}
	release, err := holdLease(ctx, f.Store, lease)
	if err != nil {
		return nil, nil, err
	}
	rec, ok, err := f.Store.Protocol(ctx)
	if err != nil || !ok {
		release()
		return nil, nil, cmp.Or(err, ErrNoProtocol)
	}
	fd := &folder{st: f.Store, owner: f.Owner, params: rec.Params, lease: newLeaseKeeper(f.Store, lease)}
	if err := fd.loadState(ctx); err != nil {
		release()
		return nil, nil, err
	}
	return fd, release, nil
}

// recordRefold records that the figures from milestone from on must be folded again
// (the lower of it and a refold recorded already), before anything is rewritten.
func (fd *folder) recordRefold(ctx context.Context, from uint32) error {
	if from <= fd.state.Base {
		return fmt.Errorf("refold from %d: the ledger families start after their base %d", from, fd.state.Base)
	}
	if from > fd.state.Watermark || (fd.state.RefoldFrom != 0 && fd.state.RefoldFrom <= from) {
		return nil // not folded yet, or recorded already
	}
	next := fd.state
	next.RefoldFrom = from
	if err := fd.st.ReplaceLedgerFamilies(ctx, next, fd.owner); err != nil {
		return err
	}
	fd.state = next
	return nil
}

// syncedRun is the end of the run of synced milestones from from, at most n of them
// (from-1 when from is not synced).
func syncedRun(ctx context.Context, st *store.Store, from uint32, n uint32) (uint32, error) {
	synced, err := st.Synced(ctx, from, from+n-1)
	if err != nil {
		return 0, err
	}
	to := from - 1
	for _, ok := synced[to+1]; ok; _, ok = synced[to+1] {
		to++
	}
	return to, nil
}

// holdLease takes lease and returns its release; ErrLeaseHeld names the holder.
func holdLease(ctx context.Context, st *store.Store, lease store.Lease) (release func(), err error) {
	held, err := st.AcquireLease(ctx, lease)
	if err != nil {
		return nil, err
	}
	if !held {
		holder, _ := st.LeaseHolder(ctx, lease.Name) // only to name it in the error
		return nil, fmt.Errorf("%w (%s)", ErrLeaseHeld, holder)
	}
	return func() { Job{Store: st}.release(ctx, lease) }, nil
}

// folder is one fold's state and parameters.
type folder struct {
	st     *store.Store
	owner  string
	params chain.ProtocolParameters
	state  store.LedgerFamiliesState
	lease  *leaseKeeper // nil: no lease to renew (a check)
	// recomputed counts the milestones whose delta rows this fold wrote (see delta).
	recomputed int
}

// foldRange folds milestones from..to, from the figures of from-1.
func (fd *folder) foldRange(ctx context.Context, from, to uint32) error {
	figs, err := fd.figuresAt(ctx, from-1)
	if err != nil {
		return err
	}
	for m := from; m <= to; m++ {
		if err := fd.lease.keep(ctx); err != nil {
			return err
		}
		if err := fd.step(ctx, m, figs); err != nil {
			return fmt.Errorf("folding milestone %d: %w", m, err)
		}
	}
	return nil
}

// step folds milestone m's deltas into figs (the figures of m-1) and writes m's rows.
func (fd *folder) step(ctx context.Context, m uint32, figs map[string]int64) error {
	d, err := fd.delta(ctx, m)
	if err != nil {
		return err
	}
	for k, v := range d.Figures {
		figs[k] += v
	}
	balances, err := foldBalances(ctx, fd.st, m, d.Balances, figs)
	if err != nil {
		return err
	}
	if err := fd.st.WriteAddressBalances(ctx, m, balances, balanceReads); err != nil {
		return err
	}
	at, err := fd.st.MilestoneTime(ctx, m)
	if err != nil {
		return fmt.Errorf("milestone time: %w", err)
	}
	return fd.write(ctx, m, at, figs)
}

// delta reads milestone m's delta row. A milestone written without one (by an indexer
// from before the families, or one that ran without analytics rows) gets its analytics
// rows written now, from the milestone read back, so the fold goes on instead of
// waiting for someone to run the recompute.
func (fd *folder) delta(ctx context.Context, m uint32) (store.LedgerDelta, error) {
	d, ok, err := fd.st.ReadLedgerDelta(ctx, m)
	if err != nil || ok {
		return d, err
	}
	if err := recomputeMilestone(ctx, fd.st, m); err != nil {
		return d, err
	}
	fd.recomputed++
	if d, ok, err = fd.st.ReadLedgerDelta(ctx, m); err != nil || ok {
		return d, err
	}
	return d, fmt.Errorf("%w after its analytics rows were written again", ErrNoLedgerDelta)
}

// write stores milestone m's families (and the protocol parameters where they differ
// from the ones written last) and moves the watermark to m.
func (fd *folder) write(ctx context.Context, m uint32, at time.Time, figs map[string]int64) error {
	rows := familyRows(figs)
	if p := protocolRow(fd.params); p.Detail != fd.state.Protocol {
		rows = append(rows, p)
		fd.state.Protocol = p.Detail
	}
	if err := fd.st.WriteFamilies(ctx, m, at, rows); err != nil {
		return err
	}
	return fd.folded(ctx, m)
}

// folded records that milestone m's rows are written: the watermark moves on to m, or,
// when m refolded a milestone at or below it, the recorded refold moves past m (and is
// done once past the watermark).
func (fd *folder) folded(ctx context.Context, m uint32) error {
	next := fd.state
	if next.RefoldFrom != 0 && m >= next.RefoldFrom {
		next.RefoldFrom = m + 1
		if next.RefoldFrom > max(next.Watermark, m) {
			next.RefoldFrom = 0
		}
	}
	var err error
	if m > next.Watermark {
		next.Watermark = m
		err = fd.st.AdvanceLedgerFamilies(ctx, next, fd.owner)
	} else if next != fd.state {
		err = fd.st.ReplaceLedgerFamilies(ctx, next, fd.owner)
	}
	if err == nil {
		fd.state = next
	}
	return err
}

// figuresAt reads the stored figures of milestone index: zeros at a partial base.
func (fd *folder) figuresAt(ctx context.Context, index uint32) (map[string]int64, error) {
	figs := zeroFigures(fd.params.TokenSupply)
	if index == fd.state.Base && !fd.state.Complete {
		return figs, nil
	}
	for _, family := range LedgerFamilies {
		p, ok, err := fd.st.MilestoneFamily(ctx, family, index)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("no %s figures at milestone %d to fold onto", family, index)
		}
		for k, v := range joinFamilies([]store.FamilyFigures{p.FamilyFigures}) {
			figs[k] = v
		}
	}
	return figs, nil
}

package snapshotexport

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Bounds of the ledger's reads.
const (
	unspentPage = 1000
	// probeMargin is how many milestones past the newest synced one may have spent
	// outputs without a sync row yet (the ingest pipeline's milestones in flight).
	probeMargin = 64
)

// ledgerKinds are the kinds of the unspent set, as its rows name them.
var ledgerKinds = []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}

// writeLedger writes the unspent outputs at X in order of output ID and checks that they
// and the treasury make the token supply.
func (e *export) writeLedger(ctx context.Context, wr *snapshot.Writer) error {
	s := newSorter(e.cfg.TempDir, e.cfg.RunBytes)
	defer s.close()
	if err := e.scanUnspent(ctx, s); err != nil {
		return err
	}
	if err := e.addSpentAfter(ctx, s); err != nil {
		return err
	}
	var sum uint64
	var carry uint64
	err := s.emit(func(o *snapshot.Output) error {
		out, err := o.Decode()
		if err != nil {
			return fmt.Errorf("output %s: %w", o.OutputID, err)
		}
		sum, carry = bits.Add64(sum, out.Amount, carry)
		return wr.WriteOutput(o)
	})
	if err != nil {
		return err
	}
	outputs, _, _ := wr.Counts()
	return e.checkSupply(sum, carry, outputs)
}

// checkSupply: the outputs and the treasury sum to the token supply, as a node checks
// after loading the file. A keyspace written to during the export can fail this (an
// output spent past X deleted before it was read and its milestone's ledger updates not
// written yet): then export again.
func (e *export) checkSupply(sum, carry, count uint64) error {
	total, c := bits.Add64(sum, e.treasury.Amount, 0)
	if supply := e.option.Params.TokenSupply; carry != 0 || c != 0 || total != supply {
		return fmt.Errorf("%w: the %d outputs at milestone %d sum to %d, the treasury holds %d, the token supply is %d "+
			"(an indexer writing to the keyspace during the export can cause this: export again)",
			ErrLedgerRows, count, e.x, sum, e.treasury.Amount, supply)
	}
	return nil
}

// scanUnspent reads every unspent_outputs partition that may hold an output booked up to
// X, and each output's row; outputs booked past X (milestones written after X) are left
// out.
func (e *export) scanUnspent(ctx context.Context, s *sorter) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.cfg.Reads)
	var read atomic.Int64
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for _, rng := range e.cov.Partitions {
		for _, kind := range ledgerKinds {
			err := e.unspentPartition(gctx, kind, rng, func(u store.UnspentRow) {
				g.Go(func() error {
					read.Add(1)
					return e.addUnspent(gctx, s, kind, u)
				})
				select {
				case <-tick.C:
					e.log.Info("export: reading the unspent outputs", "read", read.Load(), "partition", rng)
				default:
				}
			})
			if err != nil {
				if werr := g.Wait(); werr != nil {
					return werr // the read that failed first, which canceled the paging
				}
				return err
			}
		}
	}
	return g.Wait()
}

// unspentPartition pages through one partition of the unspent set, calling f with each
// row booked up to X.
func (e *export) unspentPartition(ctx context.Context, kind chain.OutputKind, rng int32, f func(store.UnspentRow)) error {
	req := store.PageRequest{Size: unspentPage}
	for {
		rows, next, err := e.st.LedgerPage(ctx, store.LedgerStream{Kind: kind.String()}, rng, store.Span{}, req)
		if err != nil {
			return fmt.Errorf("unspent %s outputs of partition %d: %w", kind, rng, err)
		}
		for _, u := range rows {
			if u.MilestoneIndex >= 0 && uint32(u.MilestoneIndex) <= e.x {
				f(u)
			}
		}
		if len(next) == 0 {
			return nil
		}
		req.State = next
	}
}

// addUnspent reads an unspent output's row and adds its entry.
func (e *export) addUnspent(ctx context.Context, s *sorter, kind chain.OutputKind, u store.UnspentRow) error {
	id, err := chain.ParseOutputID(u.OutputID)
	if err != nil {
		return fmt.Errorf("unspent_outputs: %w", err)
	}
	r, err := e.st.BookedRow(ctx, kind, u.RowKey(), id, uint32(u.MilestoneIndex))
	if err != nil {
		return fmt.Errorf("%w: unspent output %s: %w", ErrLedgerRows, id, err)
	}
	if r.SpentMilestoneIndex != nil && uint32(*r.SpentMilestoneIndex) <= e.x {
		return fmt.Errorf("%w: output %s is in unspent_outputs, its row says milestone %d spent it", ErrLedgerRows, id,
			*r.SpentMilestoneIndex)
	}
	o, err := entryOf(id, &r)
	if err != nil {
		return err
	}
	return s.add(o)
}

// entryOf is an output-table row as an output entry.
func entryOf(id chain.OutputID, r *store.OutputRow) (snapshot.Output, error) {
	o := snapshot.Output{OutputID: id, BookedIndex: uint32(r.MilestoneIndex), BookedTimestamp: uint32(r.Timestamp.Unix()), Raw: r.Data}
	if r.MessageID == "" {
		return o, nil
	}
	block, err := chain.ParseMessageID(r.MessageID)
	if err != nil {
		return o, fmt.Errorf("output %s: stored block %q: %w", id, r.MessageID, err)
	}
	o.BlockID = block
	return o, nil
}

// addSpentAfter adds the outputs booked up to X that milestones past X spent (their
// spends deleted them from the unspent set): from the ledger updates of every milestone
// past X up to the newest synced one, read after the scan, and probeMargin beyond.
func (e *export) addSpentAfter(ctx context.Context, s *sorter) error {
	cov, err := e.st.LedgerCoverage(ctx)
	if err != nil {
		return fmt.Errorf("reading the keyspace's ledger coverage: %w", err)
	}
	top := uint64(max(cov.Newest, e.x)) + probeMargin
	for m := uint64(e.x) + 1; m <= top; m++ {
		if err := e.addSpentBy(ctx, s, uint32(m)); err != nil {
			return err
		}
		if (m-uint64(e.x))%10000 == 0 {
			e.log.Info("export: reading the spends past the ledger index", "milestone", m, "to", top)
		}
	}
	return nil
}

// addSpentBy adds the outputs booked up to X that milestone m consumed.
func (e *export) addSpentBy(ctx context.Context, s *sorter, m uint32) error {
	ups, err := e.st.MilestoneUpdates(ctx, m)
	if err != nil {
		return fmt.Errorf("ledger updates of milestone %d: %w", m, err)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.cfg.Reads)
	for _, u := range ups {
		if !u.IsSpent {
			continue
		}
		g.Go(func() error {
			r, err := e.st.UpdatedRow(gctx, u, e.bootParts)
			if err != nil {
				return fmt.Errorf("%w: milestone %d: %w", ErrLedgerRows, m, err)
			}
			if uint32(r.MilestoneIndex) > e.x {
				return nil
			}
			o, err := entryOf(idOf(u), &r)
			if err != nil {
				return err
			}
			return s.add(o)
		})
	}
	return g.Wait()
}

// idOf is a ledger update's output ID (UpdatedRow has parsed it).
func idOf(u store.MilestoneUpdate) chain.OutputID {
	id, _ := chain.ParseOutputID(u.OutputID)
	return id
}

// bootstrapPartitions are where the bootstrap wrote the rows of the outputs it held:
// the partitions of its oldest booked milestone to L's. An output no transaction
// created (a genesis output) is found there by its owner (store.UpdatedRow); every other
// output's row is found by its output ID or transaction.
func (e *export) bootstrapPartitions() []int32 {
	var out []int32
	for p := e.st.RangeID(e.boot.OldestBooked); p <= e.st.RangeID(e.l); p++ {
		out = append(out, p)
	}
	return out
}

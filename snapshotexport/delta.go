package snapshotexport

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// ErrNotContinued: the full file the delta is to continue is not one of the keyspace's
// ledger (another network, or a target milestone the keyspace does not hold as its own).
var ErrNotContinued = errors.New("the full snapshot is not a ledger the keyspace continues")

// ExportDelta writes a delta snapshot file that continues the full file whose header is
// full, as Hornet keeps the pair (docs/snapshots.md, "Export"): its header names the
// full file's target milestone ID, its diffs run onwards from the full file's target T + 1
// to the delta's target N (cfg.At, nil: the keyspace's ledger index X), each rebuilt
// from the keyspace's rows as a full file's are, then N's solid entry points. T must lie
// in [L, N) (L: the bootstrap's ledger index), where the keyspace holds the ledger
// changes, and the keyspace's milestone T must be the full file's. It returns the header
// written, counts included. A failed export leaves w incomplete.
func ExportDelta(ctx context.Context, st *store.Store, full snapshot.FullHeader, w io.WriteSeeker, cfg Config) (
	snapshot.DeltaHeader, error) {
	cfg.defaults()
	e, err := planExport(ctx, st, cfg)
	if err != nil {
		return snapshot.DeltaHeader{}, err
	}
	if err := e.continues(ctx, &full); err != nil {
		return snapshot.DeltaHeader{}, err
	}
	h := snapshot.DeltaHeader{TargetIndex: e.n, TargetTimestamp: e.targetTime, FullTargetMilestoneID: full.TargetMilestoneID}
	wr, err := snapshot.NewDeltaWriter(w, h)
	if err != nil {
		return snapshot.DeltaHeader{}, err
	}
	if err := e.writeDelta(ctx, wr, full.TargetIndex); err != nil {
		return snapshot.DeltaHeader{}, err
	}
	if err := wr.Close(); err != nil {
		return snapshot.DeltaHeader{}, err
	}
	_, h.DiffCount, h.SEPCount = wr.Counts()
	h.SEPOffset = wr.SEPOffset()
	return h, nil
}

// continues checks that the full file is of the keyspace's network and that its target
// T, in [L, N), is the keyspace's milestone T.
func (e *export) continues(ctx context.Context, full *snapshot.FullHeader) error {
	p, want := full.Protocol.Params, e.option.Params
	if p.NetworkName != want.NetworkName || p.Bech32HRP != want.Bech32HRP {
		return fmt.Errorf("%w: the full file is of %s (hrp %s), the keyspace of %s (hrp %s)", ErrNotContinued,
			p.NetworkName, p.Bech32HRP, want.NetworkName, want.Bech32HRP)
	}
	t := full.TargetIndex
	if t < e.l || t >= e.n {
		return fmt.Errorf("%w: the full file's target %d is not in [%d, %d), from the keyspace's bootstrap to the delta's target",
			ErrTargetRange, t, e.l, e.n)
	}
	id := e.boot.MilestoneID
	if t > e.l {
		sm, err := readMilestone(ctx, e.st, t)
		if err != nil {
			return err
		}
		id = sm.mp.ID().String()
	}
	if id != full.TargetMilestoneID.String() {
		return fmt.Errorf("%w: the full file's target milestone %d is %s, the keyspace's is %s", ErrNotContinued, t,
			full.TargetMilestoneID, id)
	}
	return nil
}

// writeDelta writes the diffs from after+1 up to N, then N's solid entry points.
func (e *export) writeDelta(ctx context.Context, wr *snapshot.Writer, after uint32) error {
	e.log.Info("export: delta milestone diffs", "from", after+1, "to", e.n)
	for m := after + 1; m <= e.n; m++ {
		d, err := e.diff(ctx, m)
		if err != nil {
			return fmt.Errorf("milestone %d's diff: %w", m, err)
		}
		if err := wr.WriteDiff(d); err != nil {
			return err
		}
	}
	return e.writeSEPs(ctx, wr)
}

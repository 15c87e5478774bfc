package snapshotexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/stardust-indexer/stardust-indexer/store"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// Refusals of Export, before anything is written or before the file is complete.
var (
	// ErrLedgerPartial: the keyspace was not bootstrapped from a snapshot, so its
	// ledger-state tables lack the outputs older than its first indexed milestone.
	ErrLedgerPartial = errors.New("the keyspace's ledger is partial (no snapshot bootstrap): a snapshot of it would lack outputs")
	// ErrTargetRange: the target is not between the bootstrap's ledger index L and the
	// keyspace's ledger index X.
	ErrTargetRange = errors.New("target milestone outside the keyspace's ledger range")
	// ErrLedgerRows: the keyspace's ledger rows do not make the ledger at X (a row
	// missing or contradicting another, or outputs plus treasury not the token supply).
	ErrLedgerRows = errors.New("the keyspace's ledger rows do not add up")
)

// Config shapes an export.
type Config struct {
	// At is the target milestone N (nil: the ledger index X).
	At *uint32
	// TempDir holds the sorted runs of the output list while it is sorted (default
	// os.TempDir()).
	TempDir string
	// RunBytes bounds the outputs held in memory at once (default 64 MiB).
	RunBytes int
	// Reads bounds the reads in flight (default 64).
	Reads int
	Log   *slog.Logger
}

func (c *Config) defaults() {
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
	if c.RunBytes <= 0 {
		c.RunBytes = 64 << 20
	}
	if c.Reads <= 0 {
		c.Reads = 64
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
}

// Export writes the keyspace's ledger to w as a full snapshot file, as Hornet writes
// one (docs/snapshots.md, "Export"): the unspent outputs at the keyspace's ledger index
// X sorted by output ID, the milestone diffs from X back to the target N, and N's solid
// entry points. The keyspace must hold a whole ledger (a snapshot bootstrap at L) and N
// must lie in [L, X]. It returns the header written, counts included. A failed export
// leaves w incomplete: write to a temporary file and rename it on success.
func Export(ctx context.Context, st *store.Store, w io.WriteSeeker, cfg Config) (snapshot.FullHeader, error) {
	cfg.defaults()
	e, err := planExport(ctx, st, cfg)
	if err != nil {
		return snapshot.FullHeader{}, err
	}
	wr, err := snapshot.NewFullWriter(w, e.header())
	if err != nil {
		return snapshot.FullHeader{}, err
	}
	if err := e.write(ctx, wr); err != nil {
		return snapshot.FullHeader{}, err
	}
	if err := wr.Close(); err != nil {
		return snapshot.FullHeader{}, err
	}
	h := e.header()
	h.OutputCount, h.DiffCount, h.SEPCount = wr.Counts()
	return h, nil
}

// write streams the outputs, the diffs and the SEPs.
func (e *export) write(ctx context.Context, wr *snapshot.Writer) error {
	e.log.Info("export: ledger", "ledger_index", e.x, "target", e.n)
	if err := e.writeLedger(ctx, wr); err != nil {
		return err
	}
	e.log.Info("export: milestone diffs", "from", e.x, "down_to", e.lowestDiff())
	if err := e.writeDiffs(ctx, wr); err != nil {
		return err
	}
	return e.writeSEPs(ctx, wr)
}

// writeSEPs writes the target milestone's solid entry points, the last section of a
// full and of a delta file.
func (e *export) writeSEPs(ctx context.Context, wr *snapshot.Writer) error {
	seps, err := e.solidEntryPoints(ctx)
	if err != nil {
		return fmt.Errorf("solid entry points of milestone %d: %w", e.n, err)
	}
	for _, id := range seps {
		if err := wr.WriteSEP(id); err != nil {
			return err
		}
	}
	return nil
}

package bootstrap

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/bits"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Config is what a bootstrap reads and how it writes.
type Config struct {
	Full  string               // the full snapshot file
	Delta string               // the delta snapshot file ("": none)
	Keys  *chain.MilestoneKeys // nil: the built-in keys of the files' network
	Node  string               // who writes (indexer_meta updated_by)
	// Batch is outputs per write call, InFlight write calls at once; Writes limits the
	// write groups in flight (nil: adaptive, as the ingest pipeline's).
	Batch, InFlight int
	Writes          *adaptive.Limiter
	Metrics         *Metrics
	Log             *slog.Logger
	ProgressEvery   time.Duration // how often progress is logged (default 5 s)
	CheckpointEvery time.Duration // how often the resume point is saved (default 2 s)
	// Limits bound each file's milestone diffs (zero fields: snapshot.DefaultLimits).
	Limits snapshot.Limits

	afterPass func(pass int) // tests: called as each output pass ends
}

func (c *Config) defaults(st *store.Store) {
	c.Batch = cmpOr(c.Batch, 256)
	c.InFlight = cmpOr(c.InFlight, 16)
	c.ProgressEvery = cmpOr(c.ProgressEvery, 5*time.Second)
	c.CheckpointEvery = cmpOr(c.CheckpointEvery, 2*time.Second)
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Writes == nil {
		c.Writes = adaptive.NewLimiter(ingest.StartWrites, ingest.MinWrites, st.MaxInFlight(), nil)
	}
}

func cmpOr[T int | time.Duration](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

// Run bootstraps st's keyspace from the files and returns what it recorded.
func Run(ctx context.Context, st *store.Store, cfg Config) (store.LedgerBootstrap, error) {
	cfg.defaults(st)
	b := &run{st: st, cfg: cfg}
	defer b.close()
	if err := b.open(ctx); err != nil {
		return store.LedgerBootstrap{}, err
	}
	noop, err := checkEarlier(ctx, st, b.ledgerIndex())
	if err != nil {
		return store.LedgerBootstrap{}, err
	}
	if noop {
		return b.skipOver(ctx)
	}
	if err := b.check(ctx); err != nil {
		return store.LedgerBootstrap{}, err
	}
	if err := b.write(ctx); err != nil {
		return store.LedgerBootstrap{}, err
	}
	return b.record, nil
}

// run is one bootstrap's state between its passes.
type run struct {
	st          *store.Store
	cfg         Config
	full, delta *snapshotFile
	net         chain.Network
	keys        *chain.MilestoneKeys
	prog        *progress
	scan        *outputScan
	diffs       diffPlan
	ledger      *diffLedger
	skip        map[chain.OutputID]bool // listed outputs the ledger at the target does not hold
	restore     []chain.LedgerOutput    // outputs it holds that the list lacks
	seps        []chain.MessageID       // the solid entry points of the file that reaches L
	record      store.LedgerBootstrap
}

func (b *run) close() {
	for _, f := range []*snapshotFile{b.full, b.delta} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// open reads the headers and checks the network against the keyspace's.
func (b *run) open(ctx context.Context) error {
	var err error
	if b.full, err = openSnapshot(b.cfg.Full, snapshot.KindFull, b.cfg.Limits); err != nil {
		return err
	}
	if b.cfg.Delta != "" {
		if b.delta, err = openSnapshot(b.cfg.Delta, snapshot.KindDelta, b.cfg.Limits); err != nil {
			return err
		}
	}
	h := b.full.r.Full()
	b.net, b.keys = networkOf(h, b.cfg.Keys)
	b.prog = newProgress(b.cfg.Log, b.cfg.Metrics, h.OutputCount, b.cfg.ProgressEvery)
	return checkNetwork(ctx, b.st, b.net)
}

// check runs every check before anything is written: the first pass over the outputs,
// the diffs, the second pass, and the ledger's way from the file to L.
func (b *run) check(ctx context.Context) error {
	h := b.full.r.Full()
	b.prog.begin(1, 0)
	var err error
	if b.scan, err = scanOutputs(ctx, b.full.r, b.prog); err != nil {
		return fmt.Errorf("%s: %w", b.full.path, err)
	}
	b.full.noteOutputs()
	b.prog.end()
	b.passEnded(1)
	if err := checkSupply("the full snapshot's ledger", h.LedgerIndex, b.scan.sum, h.TreasuryAmount, h); err != nil {
		return err
	}
	if err := b.readDiffs(); err != nil {
		return err
	}
	if b.ledger, err = newDiffLedger(b.diffs.rollback, b.diffs.below, b.diffs.forward); err != nil {
		return err
	}
	if err := b.checkPass(ctx); err != nil {
		return err
	}
	return b.walkLedger()
}

// readDiffs reads, orders and verifies the milestone diffs of both files.
func (b *run) readDiffs() error {
	h := b.full.r.Full()
	fullDiffs, seps, err := readDiffs(b.full.r, b.keys)
	if err != nil {
		return fmt.Errorf("%s: %w", b.full.path, err)
	}
	if b.diffs.rollback, b.diffs.below, err = orderFull(h, fullDiffs); err != nil {
		return err
	}
	b.seps = seps
	if b.delta != nil {
		if b.diffs.forward, b.seps, err = readDiffs(b.delta.r, b.keys); err != nil {
			return fmt.Errorf("%s: %w", b.delta.path, err)
		}
		if err := orderDelta(h, b.delta.r.Delta(), b.diffs.forward); err != nil {
			return err
		}
		if err := sameMilestones(b.diffs.rollback, b.diffs.forward); err != nil {
			return err
		}
	}
	return nil
}

// checkPass reads the outputs a second time: duplicates, and the outputs diffs name.
func (b *run) checkPass(ctx context.Context) error {
	if err := b.full.rewind(); err != nil {
		return err
	}
	b.prog.begin(2, 0)
	if err := checkOutputs(ctx, b.full.r, b.scan, b.ledger, b.prog); err != nil {
		return fmt.Errorf("%s: %w", b.full.path, err)
	}
	b.prog.end()
	if err := b.full.checkOutputs(2); err != nil {
		return err
	}
	b.passEnded(2)
	return nil
}

func (b *run) passEnded(pass int) {
	if b.cfg.afterPass != nil {
		b.cfg.afterPass(pass)
	}
}

// walkLedger rolls the diffs' outputs back to the target, notes how the target's ledger
// differs from the file's list, applies the delta and checks the supply at L.
func (b *run) walkLedger() error {
	h := b.full.r.Full()
	b.ledger.totals = ledgerTotals{outputs: b.scan.count, sum: b.scan.sum,
		treasury: treasury{h.TreasuryMilestoneID, h.TreasuryAmount}}
	for _, d := range b.diffs.rollback {
		if err := b.ledger.rollBack(d); err != nil {
			return err
		}
	}
	b.skip, b.restore = b.ledger.atTarget()
	for _, d := range b.diffs.forward {
		if err := b.ledger.apply(d); err != nil {
			return err
		}
	}
	t := b.ledger.totals
	if err := checkSupply("the ledger", b.ledgerIndex(), t.sum, t.treasury.amount, h); err != nil {
		return err
	}
	b.record = b.newRecord()
	return nil
}

// checkSupply refuses a ledger whose outputs and treasury do not sum to the supply.
func checkSupply(what string, index uint32, sum, treasury uint64, h *snapshot.FullHeader) error {
	total, carry := bits.Add64(sum, treasury, 0)
	if supply := h.Protocol.Params.TokenSupply; carry != 0 || total != supply {
		return refuse(ErrSupply, "%s at milestone %d: outputs %d + treasury %d, token supply %d", what, index, sum, treasury, supply)
	}
	return nil
}

// ledgerIndex is L: the delta's target, else the full file's.
func (b *run) ledgerIndex() uint32 {
	if b.delta != nil {
		return b.delta.r.Delta().TargetIndex
	}
	return b.full.r.Full().TargetIndex
}

func (b *run) newRecord() store.LedgerBootstrap {
	h := b.full.r.Full()
	rec := store.LedgerBootstrap{Index: h.TargetIndex, MilestoneID: h.TargetMilestoneID.String(),
		MilestoneTimestamp: h.TargetTimestamp, Kind: "full", TargetIndex: h.TargetIndex, LedgerIndex: h.LedgerIndex,
		GenesisIndex: h.GenesisIndex, Outputs: b.ledger.totals.outputs,
		Supply: b.ledger.totals.sum + b.ledger.totals.treasury.amount, Treasury: b.ledger.totals.treasury.amount,
		TreasuryMilestone: b.ledger.totals.treasury.milestone.String(),
		OldestBooked:      b.scan.oldest, ParamsTargetIndex: h.Protocol.TargetIndex, ProtocolVersion: h.Protocol.ProtocolVersion,
		Params: "0x" + hex.EncodeToString(h.Protocol.Raw)}
	if b.delta != nil {
		d := b.delta.r.Delta()
		rec.Kind, rec.Index, rec.MilestoneTimestamp = "full+delta", d.TargetIndex, d.TargetTimestamp
		if n := len(b.diffs.forward); n > 0 {
			rec.MilestoneID = b.diffs.forward[n-1].cm.MilestoneID.String()
		}
	}
	for _, lo := range b.restore {
		rec.OldestBooked = min(rec.OldestBooked, lo.MilestoneIndex)
	}
	for _, d := range b.diffs.forward {
		for _, lo := range d.cm.Created {
			rec.OldestBooked = min(rec.OldestBooked, lo.MilestoneIndex)
		}
	}
	return rec
}

// skipOver is the bootstrap of a snapshot whose ledger the keyspace's indexed milestones
// already pass (checkEarlier): nothing is read past the headers or written.
func (b *run) skipOver(ctx context.Context) (store.LedgerBootstrap, error) {
	rec, _, err := b.st.LedgerBootstrap(ctx)
	if err != nil {
		return store.LedgerBootstrap{}, err
	}
	b.cfg.Log.Info("nothing to bootstrap: the keyspace holds the ledger bootstrapped at another milestone and every "+
		"milestone between it and this snapshot's is indexed", "snapshot_ledger_index", b.ledgerIndex(),
		"bootstrapped_index", rec.Index)
	return rec, nil
}

// write binds the keyspace to the network, writes every row and records the bootstrap.
func (b *run) write(ctx context.Context) error {
	if err := b.full.rewind(); err != nil { // the write pass's reading: a changed header stops it before any row
		return err
	}
	if err := b.st.EnsureNetwork(ctx, b.net, b.cfg.Node); err != nil {
		return err
	}
	if err := b.st.RecordBootstrapBegun(ctx, b.record.Index, b.cfg.Node); err != nil {
		return err
	}
	w := &writer{st: b.st, pool: b.st.NewWritePool(b.cfg.Writes), hw: hints.NewWriter(1 << 16), m: b.cfg.Metrics,
		hintTS: store.Timestamp(b.record.Index, store.PhaseConfirmed), batch: b.cfg.Batch, inFlight: b.cfg.InFlight}
	if err := b.writeMilestones(ctx, w); err != nil {
		return err
	}
	if err := b.writeOutputList(ctx, w); err != nil {
		return err
	}
	if err := w.writeOutputs(ctx, b.restore); err != nil {
		return fmt.Errorf("writing outputs rolled back into the ledger: %w", err)
	}
	for _, d := range b.diffs.forward {
		if err := w.apply(ctx, b.st.MilestoneWrites(d.cm, 0, nil)); err != nil {
			return fmt.Errorf("writing delta milestone %d: %w", d.index(), err)
		}
	}
	for _, f := range []*snapshotFile{b.full, b.delta} {
		if f != nil {
			f.warnIfReplaced(b.cfg.Log)
		}
	}
	if err := b.st.RecordBootstrapSEPs(ctx, b.record.Index, b.seps, b.cfg.Node); err != nil {
		return err
	}
	if err := b.st.RecordLedgerBootstrap(ctx, b.record, b.cfg.Node); err != nil {
		return err
	}
	b.cfg.Metrics.Pass.Set(4)
	return nil
}

// writeMilestones writes the milestones at or below the full file's target: their
// milestone rows and ledger update lists. A rolled-back milestone is verified but not
// written unless the delta applies it: it lies past the ledger the keyspace holds
// (past L), where only indexed milestones belong, and indexing goes on from L + 1.
func (b *run) writeMilestones(ctx context.Context, w *writer) error {
	for _, d := range b.diffs.below {
		if err := w.apply(ctx, b.st.SnapshotMilestoneWrites(d.cm)); err != nil {
			return fmt.Errorf("writing milestone %d: %w", d.index(), err)
		}
	}
	return nil
}

// writeOutputList streams the full file's outputs a third time (write rewound the file),
// writing those the ledger at the target holds, from the checkpoint of an interrupted run
// on; then checks they were the outputs the first pass read.
func (b *run) writeOutputList(ctx context.Context, w *writer) error {
	id := filesID(b.full, b.delta)
	from, err := b.st.BootstrapProgress(ctx, id)
	if err != nil {
		return err
	}
	if from > 0 {
		b.cfg.Log.Info("bootstrap resumes", "outputs_written", from, "of", b.scan.count)
	}
	cp := &checkpoint{period: b.cfg.CheckpointEvery, saved: from, last: time.Now(),
		save: func(ctx context.Context, done uint64) error {
			return b.st.SaveBootstrapProgress(ctx, id, done, b.cfg.Node)
		}}
	b.prog.begin(3, from)
	if err := w.streamOutputs(ctx, b.full.r, from, b.skip, cp, b.prog); err != nil {
		return err
	}
	b.prog.end()
	return b.full.checkOutputs(3)
}

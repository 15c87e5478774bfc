package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// cmdExport writes milestones -from..-to of the keyspace to the archive -out or, with
// -snapshot, the keyspace's ledger to a Hornet full snapshot file. Either file is written
// under a temporary name and renamed once complete: a failed export leaves none.
func cmdExport(ctx context.Context, args []string) error {
	var db dbFlags
	var from, to uint
	var out, snap, delta string
	var at optionalIndex
	err := parseFlags("export", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.UintVar(&from, "from", 0, "first milestone (required)")
		fs.UintVar(&to, "to", 0, "last milestone (default: -from)")
		fs.StringVar(&out, "out", "", "the archive file to write (required; e.g. ms-1000-1999.sdxa.gz)")
		fs.StringVar(&snap, "snapshot", "", "write the ledger to this Hornet full snapshot file (TIP-35) instead of an archive")
		fs.Var(&at, "at", "with -snapshot: the target milestone, from the bootstrap's ledger index to the keyspace's "+
			"(default: the keyspace's ledger index)")
		fs.StringVar(&delta, "delta", "", "write a delta snapshot file (TIP-35) that continues the existing full file "+
			"-snapshot names, from its target to -at, instead of a full file")
	})
	if err != nil {
		return err
	}
	if snap != "" && (from != 0 || to != 0 || out != "") || snap == "" && at.set {
		return errors.New("export writes an archive (-from, -to, -out) or a snapshot (-snapshot, -at), not both")
	}
	if delta != "" && snap == "" {
		return errors.New("export -delta needs -snapshot FULL.bin: the full file the delta continues")
	}
	if snap != "" {
		return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
			if delta != "" {
				return exportDeltaFile(ctx, st, at.value(), snap, delta)
			}
			return exportSnapshotFile(ctx, st, at.value(), snap)
		})
	}
	to = max(to, from)
	if from < 1 || to > 1<<32-1 || out == "" {
		return errors.New("export needs -from N (>= 1), -out FILE and, optionally, -to M >= N; or -snapshot FILE [-at N]")
	}
	return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
		return exportFile(ctx, st, uint32(from), uint32(to), out)
	})
}

// optionalIndex is a milestone index flag that may be absent.
type optionalIndex struct {
	index uint32
	set   bool
}

func (o *optionalIndex) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.FormatUint(uint64(o.index), 10)
}

func (o *optionalIndex) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return fmt.Errorf("a milestone index: %w", err)
	}
	o.index, o.set = uint32(n), true
	return nil
}

// value is the index, nil when the flag was not given.
func (o *optionalIndex) value() *uint32 {
	if !o.set {
		return nil
	}
	return &o.index
}

// writeComplete writes out through write into out + ".partial" and renames it to out
// once write and the close succeed; otherwise it removes the partial file.
func writeComplete(out string, write func(*os.File) error) error {
	tmp := out + ".partial"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // a no-op once renamed
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

func exportFile(ctx context.Context, st *store.Store, from, to uint32, out string) error {
	err := writeComplete(out, func(f *os.File) error {
		return archive.Export(ctx, st, from, to, f, func(i uint32) {
			if (i-from+1)%1000 == 0 {
				slog.Info("exporting", "milestone", i, "to", to)
			}
		})
	})
	if err != nil {
		return err
	}
	slog.Info("exported", "from", from, "to", to, "file", out)
	return nil
}

// exportSnapshotFile writes the keyspace's ledger to out as a full snapshot with target
// at (nil: the keyspace's ledger index); the output list's sorted runs go next to out.
func exportSnapshotFile(ctx context.Context, st *store.Store, at *uint32, out string) error {
	var h snapshot.FullHeader
	err := writeComplete(out, func(f *os.File) (err error) {
		h, err = snapshotexport.Export(ctx, st, f, snapshotexport.Config{At: at, TempDir: filepath.Dir(out)})
		return err
	})
	if err != nil {
		return fmt.Errorf("export -snapshot %s: %w", out, err)
	}
	slog.Info("exported a snapshot", "file", out, "ledger_index", h.LedgerIndex, "target", h.TargetIndex,
		"outputs", h.OutputCount, "diffs", h.DiffCount, "solid_entry_points", h.SEPCount)
	return nil
}

// exportDeltaFile writes to out a delta snapshot that continues the full file fullPath
// (read for its header only) from its target to at (nil: the keyspace's ledger index).
func exportDeltaFile(ctx context.Context, st *store.Store, at *uint32, fullPath, out string) error {
	full, err := readFullHeader(fullPath)
	if err != nil {
		return err
	}
	var h snapshot.DeltaHeader
	err = writeComplete(out, func(f *os.File) (err error) {
		h, err = snapshotexport.ExportDelta(ctx, st, full, f, snapshotexport.Config{At: at, TempDir: filepath.Dir(out)})
		return err
	})
	if err != nil {
		return fmt.Errorf("export -delta %s: %w", out, err)
	}
	slog.Info("exported a delta snapshot", "file", out, "continues", fullPath, "from", full.TargetIndex+1,
		"target", h.TargetIndex, "diffs", h.DiffCount, "solid_entry_points", h.SEPCount)
	return nil
}

// readFullHeader reads the header of the full snapshot file at path.
func readFullHeader(path string) (snapshot.FullHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return snapshot.FullHeader{}, fmt.Errorf("the full snapshot the delta continues: %w", err)
	}
	defer f.Close()
	r, err := snapshot.NewReader(f)
	if err != nil {
		return snapshot.FullHeader{}, fmt.Errorf("the full snapshot %s: %w", path, err)
	}
	if r.Kind() != snapshot.KindFull {
		return snapshot.FullHeader{}, fmt.Errorf("%s is not a full snapshot file: a delta continues a full one", path)
	}
	return *r.Full(), nil
}

// cmdImport ingests archives through the normal pipeline (verification included) and
// marks each imported milestone's sync row with this node in logged_by.
func cmdImport(ctx context.Context, args []string) error {
	var f runFlags
	var keysFile string
	var maxRecordMiB uint
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	f.db.register(fs)
	fs.StringVar(&keysFile, "milestone-keys", "", "a Hornet config (or its protocol section) with the network's "+
		"milestone keys (default: the built-in keys of the network the archive names: sim, shimmer, iota-mainnet)")
	fs.IntVar(&f.window, "window", 4, "milestones written at once")
	fs.IntVar(&f.fetch, "fetch-ahead", 8, "milestones decoded ahead of the writers")
	fs.UintVar(&maxRecordMiB, "max-record-mib", archive.DefaultMaxRecord>>20, "refuse a record (one milestone) "+
		"declaring more MiB, before reading it (a real milestone's record takes some 10-100 KB)")
	f.registerWrites(fs)
	fs.BoolVar(&f.migrate, "migrate", false, "create/upgrade the schema before importing")
	f.analytics.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: indexer import [flags] FILE... (contiguous archives, oldest first)")
	}
	if maxRecordMiB < 1 || maxRecordMiB > 4095 {
		return errors.New("-max-record-mib: from 1 to 4095")
	}
	keys, err := archiveKeys(keysFile, fs.Arg(0))
	if err != nil {
		return err
	}
	src, err := archive.OpenLimited(fs.Args(), keys,
		archive.Limits{Window: f.fetch, MaxRecord: uint32(maxRecordMiB) << 20})
	if err != nil {
		return err
	}
	defer src.Close()
	return importArchives(ctx, &f, src)
}

func importArchives(ctx context.Context, f *runFlags, src *archive.Source) error {
	cfg, err := f.db.config()
	if err != nil {
		return err
	}
	st, err := f.openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	from, to := src.Range()
	f.claim, f.claimTTL, f.stopAt = 1000, 0, uint(to)
	pc := f.pipelineConfig()
	pc.Start, pc.Follow, pc.Unreferenced, pc.LoggedBy = from, false, false, int8(f.db.nodeID)
	p := ingest.New(src, st, pc, nil, slog.Default())
	errs := newAnalyticsErrors(nil)
	stopAnalytics := attachAnalytics(ctx, p, st, f.analytics, errs)
	defer stopAnalytics()
	slog.Info("importing", "cluster", cfg.String(), "from", from, "to", to)
	if err := p.Run(ctx); err != nil {
		if errors.Is(err, archive.ErrTooLarge) {
			err = fmt.Errorf("%w (-max-record-mib sets the cap)", err)
		}
		return fmt.Errorf("import stopped after milestone %d: %w", p.LastWritten(), err)
	}
	slog.Info("imported", "from", from, "to", to, "written", p.Written())
	stopAnalytics()
	finalFold(ctx, st, f.analytics, errs)
	return nil
}

// archiveKeys is the keys that verify the archives starting with first: those of
// keysFile, else the simulator's for an archive of the sim network, else nil (the
// archive's built-in keys of the network it names).
func archiveKeys(keysFile, first string) (*chain.MilestoneKeys, error) {
	if keysFile != "" {
		return readKeys(keysFile)
	}
	h, err := archive.ReadHeader(first)
	if err != nil {
		return nil, err
	}
	if h.Network.Name != sim.NetworkName {
		return nil, nil
	}
	keys := sim.Network().Keys
	return &keys, nil
}

func readKeys(path string) (*chain.MilestoneKeys, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-milestone-keys: %w", err)
	}
	keys, err := chain.ParseMilestoneKeys(data)
	if err != nil {
		return nil, fmt.Errorf("-milestone-keys %s: %w", path, err)
	}
	return &keys, nil
}

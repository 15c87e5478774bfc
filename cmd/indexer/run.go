package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

type runFlags struct {
	db                dbFlags
	source            string
	node              nodeFlags
	startAt           uint
	simSeed           int64
	simMessages       int
	simTxRatio        float64
	simBackfill       uint
	simEvery          time.Duration
	simSpendable      int
	simMsInterval     time.Duration
	opsAddr           string
	follow            bool
	unreferenced      bool
	poll              time.Duration
	stopGrace         time.Duration
	stopAt            uint
	window, fetch, wp int
	fixedWrites       bool
	readProbe         time.Duration
	migrate           bool
	claim             uint
	claimTTL          time.Duration
	gapCheck          time.Duration
	unavailableRetry  time.Duration
	analytics         analyticsFlags
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.db.register(fs)
	fs.StringVar(&f.source, "source", "sim", "where milestones come from: sim, or node (a Hornet node's REST API)")
	fs.UintVar(&f.startAt, "start-at", 0, "first milestone to index (0: after a snapshot bootstrap's ledger, else 1 for the sim; "+
		"for a node, its oldest or the keyspace's oldest synced, whichever is lower)")
	f.node.register(fs)
	fs.Int64Var(&f.simSeed, "sim-seed", 1, "sim: generator seed (same seed, same chain)")
	fs.IntVar(&f.simMessages, "sim-messages", 20, "sim: messages per milestone")
	fs.Float64Var(&f.simTxRatio, "sim-tx-ratio", 0.5, "sim: share of messages carrying a transaction")
	fs.UintVar(&f.simBackfill, "sim-backfill", 1000, "sim: milestones that exist at start")
	fs.DurationVar(&f.simEvery, "sim-every", 5*time.Second, "sim: a new milestone every (0: none)")
	fs.DurationVar(&f.simMsInterval, "sim-ms-interval", 10*time.Second, "sim: milestone timestamp spacing")
	fs.IntVar(&f.simSpendable, "sim-spendable", 0,
		"sim: keep the wallets' spendable outputs near this many, so a long run's load stays level (0: they grow)")
	fs.StringVar(&f.opsAddr, "ops-addr", "127.0.0.1:9100",
		"address of /metrics, /healthz, /readyz (loopback by default; empty: off)")
	fs.BoolVar(&f.follow, "follow", true, "after filling gaps, follow the tip")
	fs.DurationVar(&f.poll, "poll-interval", time.Second, "while following, how often to ask the source for a new milestone "+
		"(node events, when connected, start a fetch sooner)")
	fs.DurationVar(&f.stopGrace, "stop-grace", 30*time.Second, "on SIGTERM or Ctrl-C, how long the milestones being "+
		"written may take to finish (nothing new starts)")
	fs.BoolVar(&f.unreferenced, "unreferenced", true, "while following, also index not-yet-referenced messages")
	fs.UintVar(&f.stopAt, "stop-at", 0, "stop after this milestone (0: never)")
	fs.IntVar(&f.window, "window", ingest.DefaultWindow, "milestones written at once (the adaptive write limit bounds their writes)")
	fs.IntVar(&f.fetch, "fetch-ahead", 8, "milestones fetched ahead of the writers")
	f.registerWrites(fs)
	fs.BoolVar(&f.migrate, "migrate", false, "create/upgrade the schema before running")
	fs.UintVar(&f.claim, "claim", 1000, "milestones a node claims at a time (the same on every node of a keyspace)")
	fs.DurationVar(&f.claimTTL, "claim-ttl", 30*time.Second, "lease of a claimed block; frees a dead node's block")
	fs.DurationVar(&f.gapCheck, "gap-check", time.Minute, "while following, how often to reread all of sync for gaps")
	fs.DurationVar(&f.unavailableRetry, "unavailable-retry", time.Hour, "how often to ask the source again for "+
		"milestones it refused as not held (pruned); indexer import of an archive fills them meanwhile")
	f.analytics.register(fs)
}

func cmdRun(ctx context.Context, args []string) error {
	var f runFlags
	if err := parseFlags("run", args, f.register); err != nil {
		return err
	}
	cfg, err := f.db.config()
	if err != nil {
		return err
	}
	if f.claim < 1 || f.claim > 1<<31 {
		return fmt.Errorf("-claim %d: want 1..2^31", f.claim)
	}
	st, err := f.openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	src, err := f.openSource(st)
	if err != nil {
		return err
	}
	start, err := f.start(ctx, src, st)
	if err != nil {
		return err
	}
	if err := f.recordSourceOldest(ctx, src, st); err != nil {
		return err
	}
	reg := ops.NewRegistry()
	if ns, ok := src.(*node.Source); ok {
		if err := ns.Register(reg); err != nil {
			return err
		}
		ns.Listen(ctx)
	}
	m := ingest.NewMetrics(reg)
	st.OnRetry(func(string, int, error) { m.Retries.Inc() })
	pc := f.pipelineConfig()
	pc.Start = start
	p := ingest.New(src, st, pc, m, slog.Default())
	analyticsErrs := newAnalyticsErrors(reg)
	stopAnalytics := attachAnalytics(ctx, p, st, f.analytics, analyticsErrs)
	defer stopAnalytics()
	ops.Serve(ctx, f.opsAddr, reg, func(ctx context.Context) error { return st.Ping(store.NoRetries(ctx)) })
	slog.Info("indexer running", "cluster", cfg.String(), "source", f.source, "node", f.db.nodeID, "start_at", start)
	err = p.Run(ctx)
	if err == nil {
		stopAnalytics()
		finalFold(ctx, st, f.analytics, analyticsErrs)
	}
	if err == nil || errors.Is(err, context.Canceled) {
		slog.Info("stopped", "last_milestone", p.LastWritten(), "written", p.Written())
		return nil
	}
	return err
}

func (f *runFlags) pipelineConfig() ingest.Config {
	return ingest.Config{NodeID: int8(f.db.nodeID), FetchAhead: f.fetch, Window: f.window, WriteParallel: f.wp,
		FixedWrites: f.fixedWrites, ReadProbe: readProbe(f.readProbe),
		Follow: f.follow, PollInterval: f.poll, Unreferenced: f.unreferenced, StopAt: uint32(f.stopAt), Claim: uint32(f.claim),
		ClaimTTL: f.claimTTL, StopGrace: f.stopGrace, GapCheck: f.gapCheck, UnavailableRetry: f.unavailableRetry,
		Owner: processOwner("ingest")}
}

// simRetain bounds the sim's memory to about this many milestones (~30 KB each at 40
// messages): far more than the pipeline's window and fetch-ahead.
const simRetain = 1024

// registerWrites registers the write concurrency flags (run and import).
func (f *runFlags) registerWrites(fs *flag.FlagSet) {
	fs.IntVar(&f.wp, "write-parallel", 0, fmt.Sprintf("write groups in flight over all milestones in flight: where the adaptive "+
		"limit starts (default %d; it then climbs between %d and CQL_MAX_IN_FLIGHT to the database's knee: the level of best measured write throughput), "+
		"or the fixed limit with -fixed-writes (default %d)", ingest.StartWrites, ingest.MinWrites, ingest.DefaultFixedWrites))
	fs.BoolVar(&f.fixedWrites, "fixed-writes", false, "keep -write-parallel write groups in flight instead of adapting")
	fs.DurationVar(&f.readProbe, "read-probe", ingest.DefaultReadProbe, "how often the read guard times a small read "+
		"of the database; while reads are slow (3 × their quiet latency) it caps the writes in flight, so that the API "+
		"sharing the database keeps its latency (0: no guard, e.g. for a first backfill nothing reads)")
}

// readProbe is ingest.Config.ReadProbe for the -read-probe flag (0: off).
func readProbe(every time.Duration) time.Duration {
	if every <= 0 {
		return -1
	}
	return every
}

// simOptions shape the sim source. Retain: a long run keeps only the newest milestones
// in memory (the indexer asks in order; an older one, e.g. a gap refilled later, is
// generated again).
func (f *runFlags) simOptions() sim.Options {
	return sim.Options{Seed: f.simSeed, MessagesPerMilestone: f.simMessages, TransactionRatio: f.simTxRatio,
		MilestoneInterval: f.simMsInterval, SpendableOutputs: f.simSpendable, Retain: simRetain}
}

// openSource opens the configured source; a node source takes the creations of the
// outputs it did not see created from st.
func (f *runFlags) openSource(st *store.Store) (source.Source, error) {
	switch f.source {
	case "sim":
		return source.NewGrowing(sim.New(f.simOptions()), uint32(f.simBackfill), f.simEvery), nil
	case "node":
		return f.node.open(st)
	}
	return nil, fmt.Errorf("-source %q: want sim or node", f.source)
}

// recordSourceOldest stores the oldest milestone the node source holds, so that a resync
// or repair below every source's oldest is refused (store.CheckRefetchable).
func (f *runFlags) recordSourceOldest(ctx context.Context, src source.Source, st *store.Store) error {
	if f.source != "node" {
		return nil
	}
	oldest, err := src.(*node.Source).Oldest(ctx)
	if err != nil {
		return fmt.Errorf("asking the node for its oldest milestone: %w", err)
	}
	return st.RecordSourceOldest(ctx, fmt.Sprintf("node-%d", f.db.nodeID), oldest)
}

// start is the first milestone to index: -start-at, else the milestone after the
// ledger a snapshot bootstrap loaded, else the oldest the node holds or the keyspace's
// oldest synced milestone, whichever is lower (1 for the sim).
func (f *runFlags) start(ctx context.Context, src source.Source, st *store.Store) (uint32, error) {
	if f.startAt > 0 {
		return uint32(f.startAt), nil
	}
	next, ok, err := bootstrap.NextMilestone(ctx, st)
	if err != nil || ok {
		return next, err
	}
	if f.source != "node" {
		return 1, nil
	}
	oldest, err := src.(*node.Source).Oldest(ctx)
	if err != nil {
		return 0, fmt.Errorf("asking the node for its oldest milestone (or give -start-at): %w", err)
	}
	return keyspaceStart(ctx, st, oldest)
}

// keyspaceStart is the keyspace's oldest synced milestone when it lies below oldest (the
// node's), else oldest: the gaps above the keyspace's oldest are asked for, and those the
// node pruned are recorded as unavailable rather than left below the start unseen.
func keyspaceStart(ctx context.Context, st *store.Store, oldest uint32) (uint32, error) {
	span, err := st.SyncSpan(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return oldest, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading the keyspace's oldest synced milestone: %w", err)
	}
	return min(oldest, span.Oldest), nil
}

// openStore opens the keyspace's store, first creating or upgrading its schema when
// -migrate asks for it.
func (f *runFlags) openStore(ctx context.Context, cfg cql.Config) (*store.Store, error) {
	if f.migrate {
		if err := migrate(ctx, f.db); err != nil {
			return nil, err
		}
	}
	return store.Open(ctx, cfg, uint32(f.db.chunkSize))
}

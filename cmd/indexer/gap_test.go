package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// The chain of the gap test, as `indexer run -source sim` makes it with gapSimArgs.
const (
	gapSeed     = 3
	gapMessages = 8
	gapLast     = 34 // the node's newest milestone
	gapHeld     = 10 // indexed before the node pruned: 2..gapHeld
	gapPruned   = 20 // the node's pruning index: gapHeld+1..gapPruned are held by no node
	gapTip      = 26 // the node's tip when the indexer restarts
)

var gapSimArgs = []string{"-sim-seed", strconv.Itoa(gapSeed), "-sim-messages", strconv.Itoa(gapMessages),
	"-sim-tx-ratio", "0.5", "-sim-ms-interval", "10s"}

// commonArgs are the flags every run of the gap test shares: no ops listener, no
// ledger analytics, no unreferenced messages (a clean run writes none to compare).
var commonArgs = []string{"-ops-addr", "", "-analytics-ledger=false", "-unreferenced=false"}

// An unfillable gap below a live tip, as a user meets it: the keyspace indexed 2..10 from
// a node, which then pruned up to 20. `indexer run -source node` (no -start-at) records
// 11..20 as unavailable and follows the tip past it; `indexer status` and GET /sync show
// exactly that range; `indexer import` of an archive that `indexer export` wrote from a
// keyspace indexed by the simulator fills it and clears the record, and the keyspace then
// holds the rows of one indexed straight through from the unpruned node.
func TestUnfillableGapBelowALiveTip(t *testing.T) {
	testcontainers.SkipShort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	src := sim.New(sim.Options{Seed: gapSeed, MessagesPerMilestone: gapMessages, TransactionRatio: 0.5,
		MilestoneInterval: 10 * time.Second})
	fake := nodetest.StartSim(t, src, 1, gapLast)
	must(t, fake.SetPruningIndex(1)) // milestone 1's genesis outputs come from no transaction: start at 2
	nodeArgs := append([]string{"-source", "node", "-node-url", fake.URL(), "-milestone-keys", simKeysFile(t)}, commonArgs...)

	_, straightCfg := storetest.New(t, 0)
	mustRun(t, ctx, nodeArgs, straightCfg, "-follow=false")

	live, liveCfg := storetest.New(t, 0)
	must(t, fake.SetConfirmed(gapHeld))
	mustRun(t, ctx, nodeArgs, liveCfg, "-follow=false")
	must(t, fake.SetConfirmed(gapTip))
	must(t, fake.SetPruningIndex(gapPruned))

	run := follow(t, ctx, nodeArgs, liveCfg)
	hole := []store.Range{{From: gapHeld + 1, To: gapPruned}}
	run.awaitGap(t, ctx, hole, gapTip)
	must(t, fake.SetConfirmed(gapLast))
	run.awaitGap(t, ctx, hole, gapLast) // the tip is followed past the gap
	run.awaitSync(t, live, hole, gapLast)

	importGap(t, ctx, liveCfg)
	run.awaitGap(t, ctx, nil, gapLast) // the gauge follows at the next gap check
	run.awaitSync(t, live, nil, gapLast)
	run.end(t)
	testcontainers.AssertSameData(t, liveCfg, straightCfg, "indexer_meta", "leases", "gocqlx_migrate",
		"sync") // sync differs by logged_by: compared by indexer status and here
	assertImported(t, live, hole[0])
}

// indexerRun is an `indexer run` following in the background: its keyspace, its ops
// listener's address, where its end is reported and how it is stopped.
type indexerRun struct {
	cfg     cql.Config
	ops     string
	stopped <-chan error
	stop    context.CancelFunc
}

// follow starts `indexer run` with args on cfg's keyspace in the background, following
// the tip with a gap check every second and its ops listener on a free port.
func follow(t *testing.T, ctx context.Context, args []string, cfg cql.Config) indexerRun {
	t.Helper()
	following, stop := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	r := indexerRun{cfg: cfg, ops: bintest.FreeAddr(t), stopped: stopped, stop: stop}
	go func() {
		stopped <- cmdRun(following, slices.Concat(args, dbArgs(cfg), []string{"-gap-check", "1s", "-ops-addr", r.ops}))
	}()
	return r
}

// end stops the run and fails t unless it ended cleanly.
func (r indexerRun) end(t *testing.T) {
	t.Helper()
	r.stop()
	if err := <-r.stopped; err != nil {
		t.Fatalf("indexer run: %v", err)
	}
}

// awaitGap waits until `indexer status` shows 2..newest synced but for the gap, which
// it lists as unavailable too, and the run's indexer_unavailable_milestones counts it.
func (r indexerRun) awaitGap(t *testing.T, ctx context.Context, gap []store.Range, newest uint32) {
	t.Helper()
	var s statusReport
	want := store.Without([]store.Range{{From: 2, To: newest}}, gap)
	// Milestones are written in parallel, so newest can be synced while one below it is
	// still being written: the wait lasts until the synced ranges are whole too.
	await(t, fmt.Sprintf("status %v unavailable, newest %d", gap, newest), 2*time.Minute, r.stopped, func() bool {
		s = indexerStatus(t, ctx, r.cfg)
		n, ok := gauge(r.ops, "indexer_unavailable_milestones")
		return s.Newest == newest && slices.Equal(s.Synced, want) && slices.Equal(s.Unavailable, gap) &&
			ok && n == float64(store.CountOf(gap))
	})
	if s.Oldest != 2 || !slices.Equal(s.Synced, want) || !slices.Equal(s.Gaps, gap) || s.UnavailableMilestones != store.CountOf(gap) {
		t.Fatalf("indexer status: %d..%d, synced %v, gaps %v, %d unavailable; want 2..%d, %v, %v, %d", s.Oldest, s.Newest,
			s.Synced, s.Gaps, s.UnavailableMilestones, newest, want, gap, store.CountOf(gap))
	}
}

// awaitSync waits until GET /sync shows 2..newest with gap as its gaps and as unavailable.
// It reads the sync summary, which the indexer flushes at most once a second, so it can
// follow indexer status (the sync table) by up to a flush.
func (r indexerRun) awaitSync(t *testing.T, st *store.Store, gap []store.Range, newest uint32) {
	t.Helper()
	var s syncReport
	defer func() {
		if t.Failed() {
			t.Logf("GET /sync last answered %d..%d, gaps %v, unavailable %v", s.Oldest, s.Newest, s.Gaps, s.Unavailable)
		}
	}()
	await(t, fmt.Sprintf("GET /sync 2..%d, gaps and unavailable %v", newest, gap), 30*time.Second, r.stopped, func() bool {
		s = getSync(t, st)
		return s.Oldest == 2 && s.Newest == newest && slices.Equal(s.Gaps, gap) && slices.Equal(s.Unavailable, gap)
	})
}

// importGap indexes the chain up to gapPruned from the simulator into a keyspace of its
// own, exports the gap from it and imports that archive into cfg's keyspace.
func importGap(t *testing.T, ctx context.Context, cfg cql.Config) {
	t.Helper()
	_, simCfg := storetest.New(t, 0)
	pruned := strconv.Itoa(gapPruned)
	mustRun(t, ctx, slices.Concat([]string{"-source", "sim", "-sim-backfill", pruned, "-sim-every", "0"}, gapSimArgs, commonArgs),
		simCfg, "-stop-at", pruned, "-follow=false")
	archive := filepath.Join(t.TempDir(), "gap.sdxa.gz")
	err := cmdExport(ctx, slices.Concat([]string{"-from", strconv.Itoa(gapHeld + 1), "-to", pruned, "-out", archive}, dbArgs(simCfg)))
	must(t, err)
	must(t, cmdImport(ctx, slices.Concat(dbArgs(cfg), []string{"-analytics-ledger=false", archive})))
}

// assertImported checks that sync marks exactly the milestones of imported as logged
// from an archive, by this node.
func assertImported(t *testing.T, st *store.Store, imported store.Range) {
	t.Helper()
	logged := 0
	for _, row := range storetest.Rows(t, st, "SELECT milestone_index, logged_by FROM sync") {
		index, by := uint32(row["milestone_index"].(int)), row["logged_by"].(int8)
		if in := index >= imported.From && index <= imported.To; in != (by == 1) {
			t.Errorf("milestone %d: logged_by %d", index, by)
		}
		if by == 1 {
			logged++
		}
	}
	if logged != imported.Len() {
		t.Errorf("%d sync rows logged from an archive; want %d", logged, imported.Len())
	}
}

func mustRun(t *testing.T, ctx context.Context, args []string, cfg cql.Config, extra ...string) {
	t.Helper()
	if err := cmdRun(ctx, slices.Concat(args, dbArgs(cfg), extra)); err != nil {
		t.Fatalf("indexer run: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package ingest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// bookkeeping tables differ between runs by design (who and when), not by content.
var bookkeeping = []string{"indexer_meta", "leases", "gocqlx_migrate"}

// TestKillNineThreeTimesLosesNothing runs the indexer binary, kills it with SIGKILL at
// random points three times, restarts it, and compares every table and view with an
// uninterrupted in-process run of the same chain.
func TestKillNineThreeTimesLosesNothing(t *testing.T) {
	const tip = 150
	bin := bintest.Indexer(t)
	crashed, crashedCfg := newStore(t)
	clean, cleanCfg := newStore(t)
	ingestAll(t, clean, simSource(tip), tip, nil, analytics.Rows) // as `indexer run` attaches them

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for kill := 1; kill <= 3; kill++ {
		cmd := indexerCmd(t, bin, crashedCfg, tip)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		after := time.Duration(300+rng.IntN(2200)) * time.Millisecond
		time.Sleep(after)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		s, _ := crashed.Status(context.Background())
		t.Logf("kill %d after %s: newest synced %d, gaps %v", kill, after, s.Newest, s.Gaps)
	}
	final := indexerCmd(t, bin, crashedCfg, tip)
	if out, err := final.CombinedOutput(); err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	storetest.AssertNoGaps(t, crashed, 1, tip)
	// The crashed run's scheduler may have computed some dates between kills; computing
	// the rest in both keyspaces makes the daily tables comparable too.
	dailyAll(t, crashed, simSource(tip), tip)
	dailyAll(t, clean, simSource(tip), tip)
	assertSameData(t, crashedCfg, cleanCfg)
}

// assertSameData compares every table and view of two keyspaces but the bookkeeping
// ones and skip.
func assertSameData(t *testing.T, aCfg, bCfg cql.Config, skip ...string) {
	t.Helper()
	testcontainers.AssertSameData(t, aCfg, bCfg, append(skip, bookkeeping...)...)
}

// dailyAll runs the daily analytics job of every complete date of milestones 1..tip that
// has no daily row yet.
func dailyAll(t *testing.T, st *store.Store, src *sim.Sim, tip uint32) {
	t.Helper()
	ctx := context.Background()
	first, err := src.Confirmed(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	last, err := src.Confirmed(ctx, tip)
	if err != nil {
		t.Fatal(err)
	}
	job := analytics.Job{Store: st, Owner: "test"}
	for day := analytics.Day(first.Timestamp); day.Before(analytics.Day(last.Timestamp)); day = day.AddDate(0, 0, 1) {
		if _, err := job.Run(ctx, day, true); err != nil && !errors.Is(err, analytics.ErrDone) {
			t.Fatalf("daily analytics %s: %v", day.Format(store.DateLayout), err)
		}
	}
}

// indexerCmd backfills the same chain as simSource(tip), then exits.
func indexerCmd(t *testing.T, bin string, cfg cql.Config, tip int, extra ...string) *exec.Cmd {
	o := simOptions(0)
	args := []string{"run", "-source", "sim", "-sim-seed", itoa(int(o.Seed)),
		"-sim-messages", itoa(o.MessagesPerMilestone), "-sim-ms-interval", o.MilestoneInterval.String(),
		"-sim-backfill", itoa(tip), "-sim-every", "0", "-follow=false", "-unreferenced=false",
		// The ledger analytics snapshot the unspent set whenever the scheduler runs them: two
		// runs would differ by when, not by what they ingested (truth_test.go checks them).
		"-analytics-ledger=false",
		"-stop-at", itoa(tip), "-ops-addr", "", "-chunk-size", itoa(testChunk),
		"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ",")}
	cmd := exec.Command(bin, append(args, extra...)...)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	return cmd
}

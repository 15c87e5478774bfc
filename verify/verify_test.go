package verify_test

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/ingesttest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

const chunk = 10

// ingested is a fresh keyspace with sim milestones 1..n ingested.
func ingested(t *testing.T, n uint32) *store.Store {
	st, _ := ingestedCfg(t, n)
	return st
}

func ingestedCfg(t *testing.T, n uint32) (*store.Store, cql.Config) {
	return ingestedWith(t, sim.Options{Seed: 13, Tip: n + 1}, n)
}

// ingestedWith is a fresh keyspace with milestones 1..n of the sim chain opts.
func ingestedWith(t *testing.T, opts sim.Options, n uint32) (*store.Store, cql.Config) {
	t.Helper()
	st, cfg := storetest.New(t, chunk)
	ingesttest.Sim(t, st, sim.New(opts), n)
	return st, cfg
}

// run verifies [from, to] and returns what it found.
func run(t *testing.T, st *store.Store, from, to uint32, repair bool) (verify.Summary, []verify.Discrepancy) {
	t.Helper()
	return runWith(t, st, verify.Options{From: from, To: to, Repair: repair})
}

// runWith verifies with opts (its Report collects) and returns what it found.
func runWith(t *testing.T, st *store.Store, opts verify.Options) (verify.Summary, []verify.Discrepancy) {
	t.Helper()
	var found []verify.Discrepancy
	opts.Report = func(d verify.Discrepancy) { found = append(found, d) }
	sum, err := verify.Run(context.Background(), st, opts)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return sum, found
}

func TestCleanChain(t *testing.T) {
	t.Run("seed13", func(t *testing.T) { testClean(t, sim.Options{Seed: 13, Tip: 13}, 12) })
	// The fault tests' chain, over four ms_range_id partitions: spends cross partitions.
	t.Run("seed42", func(t *testing.T) {
		testClean(t, sim.Options{Seed: 42, Tip: 41, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute}, 40)
	})
}

func testClean(t *testing.T, opts sim.Options, n uint32) {
	_, cfg := ingestedWith(t, opts, n)
	// A store of its own, as `indexer verify` opens one: it learns the network (the HRP
	// of the addresses it derives) from the keyspace.
	sess, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	st := store.New(sess, chunk)
	sum, found := run(t, st, 1, n, false)
	for _, d := range found {
		t.Errorf("on a clean chain: %+v", d)
	}
	t.Logf("summary: %+v", sum)
	if sum.Milestones != int(n) || sum.Rows < 100*int(n) || sum.ViewRows < 50*int(n) {
		t.Errorf("checked too little: %+v", sum)
	}
}

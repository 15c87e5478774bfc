package ingest_test

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// TestThreeNodesSplitTheChain runs three indexer processes on one keyspace and chain at
// once. Block leases must split the work: every milestone written, by exactly one node
// (the written counts add up to the chain), and the data equals a single node's run.
func TestThreeNodesSplitTheChain(t *testing.T) {
	const tip, nodes = 150, 3
	bin := bintest.Indexer(t)
	shared, sharedCfg := newStore(t)
	single, singleCfg := newStore(t)
	ingestAll(t, single, simSource(tip), tip, nil, analytics.Rows)

	outs := make([]*bytes.Buffer, nodes)
	errs := make(chan error, nodes)
	for i := range nodes {
		outs[i] = &bytes.Buffer{}
		cmd := indexerCmd(t, bin, sharedCfg, tip, "-node-id", strconv.Itoa(i+1), "-claim", "10",
			"-analytics-check-every", "1h")
		cmd.Env = append(cmd.Env, "LOG_LEVEL=info")
		cmd.Stderr = outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { errs <- cmd.Wait() }()
	}
	for range nodes {
		if err := <-errs; err != nil {
			t.Fatalf("a node failed: %v\n%s\n%s\n%s", err, outs[0], outs[1], outs[2])
		}
	}
	bySync := syncedBy(t, shared, tip)
	total, busy := 0, 0
	for i, out := range outs {
		n := writtenCount(t, out.String())
		t.Logf("node %d wrote %d milestones; sync rows name it for %d", i+1, n, bySync[int8(i+1)])
		if bySync[int8(i+1)] != n {
			t.Errorf("node %d wrote %d milestones but %d sync rows name it", i+1, n, bySync[int8(i+1)])
		}
		total += n
		if n > 0 {
			busy++
		}
	}
	if total != tip {
		t.Fatalf("nodes wrote %d milestones in all; want each of the %d exactly once", total, tip)
	}
	if busy < 2 {
		t.Fatalf("only %d node wrote anything: the work was not split", busy)
	}
	storetest.AssertNoGaps(t, shared, 1, tip)
	dailyAll(t, shared, simSource(tip), tip)
	dailyAll(t, single, simSource(tip), tip)
	// sync differs by design: synced_by names the node that wrote each milestone.
	assertSameData(t, sharedCfg, singleCfg, "sync")
}

// syncedBy counts the sync rows of 1..tip per synced_by node.
func syncedBy(t *testing.T, st *store.Store, tip uint32) map[int8]int {
	t.Helper()
	synced, err := st.Synced(context.Background(), 1, tip)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int8]int{}
	for _, node := range synced {
		out[node]++
	}
	return out
}

var writtenLine = regexp.MustCompile(`msg=stopped .*written=(\d+)`)

func writtenCount(t *testing.T, log string) int {
	t.Helper()
	m := writtenLine.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no final 'stopped ... written=N' line in:\n%s", log)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestDeadNodesBlockIsTakenOver: a block leased by a node that died is skipped while its
// lease lives, and written once the lease's TTL frees it.
func TestDeadNodesBlockIsTakenOver(t *testing.T) {
	const tip = 30
	st, _ := newStore(t)
	ctx := context.Background()
	ghost := store.Lease{Name: "ingest/blocks-of-10/1", Owner: "dead-node", TTL: 3 * time.Second}
	if held, err := st.AcquireLease(ctx, ghost); err != nil || !held {
		t.Fatalf("ghost lease: %v %v", held, err)
	}
	m := ingest.NewMetrics(nil)
	p := ingest.New(simSource(tip), st, ingest.Config{NodeID: 1, StopAt: tip, Claim: 10,
		PollInterval: 200 * time.Millisecond}, m, nil)
	start := time.Now()
	if err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 2*time.Second {
		t.Fatalf("finished in %v, before the dead node's lease expired", took)
	}
	if n := testutil.ToFloat64(m.Claims.WithLabelValues("held_elsewhere")); n < 1 {
		t.Fatalf("held_elsewhere claims = %v; the dead node's block was not skipped", n)
	}
	storetest.AssertNoGaps(t, st, 1, tip)
	if p.Written() != tip {
		t.Fatalf("wrote %d milestones, want %d", p.Written(), tip)
	}
}

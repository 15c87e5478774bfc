package node

import (
	"reflect"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func cachedOutput(n byte) chain.LedgerOutput {
	var tx chain.TransactionID
	tx[0] = n
	owner := chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{n}}
	return chain.LedgerOutput{OutputID: chain.NewOutputID(tx, 0), MessageID: chain.MessageID{n},
		Output:         chain.Output{Kind: chain.OutputBasic, Amount: 1_000_000 + uint64(n), Address: &owner},
		MilestoneIndex: uint32(n), Timestamp: time.Unix(1_700_000_000+int64(n), 0).UTC()}
}

// The cache holds at most its size, dropping those created longest ago first (half its
// size at a time), returns an output as it was added, and a spent output leaves it at once.
func TestOutputCacheBoundedAndForgetsSpent(t *testing.T) {
	c := newOutputCache(4)
	c.add([]chain.LedgerOutput{cachedOutput(1), cachedOutput(2), cachedOutput(3), cachedOutput(4)})
	if c.len() != 4 {
		t.Fatalf("%d held after 4 outputs in a cache of 4", c.len())
	}
	c.add([]chain.LedgerOutput{cachedOutput(5)})
	_, first := c.get(cachedOutput(1).OutputID)
	_, second := c.get(cachedOutput(2).OutputID)
	if first || second || c.len() != 3 {
		t.Fatalf("after a fifth output in a cache of 4: the two oldest held %t %t, %d held; want dropped, 3",
			first, second, c.len())
	}
	if lo, ok := c.get(cachedOutput(4).OutputID); !ok || !reflect.DeepEqual(lo, cachedOutput(4)) {
		t.Fatalf("output 4: %+v %t; want it as added, %+v", lo, ok, cachedOutput(4))
	}
	c.forget([]chain.OutputID{cachedOutput(3).OutputID, cachedOutput(9).OutputID})
	if _, ok := c.get(cachedOutput(3).OutputID); ok || c.len() != 2 {
		t.Fatalf("after forgetting a spent output: held %t, %d held; want gone, 2", ok, c.len())
	}
	for n := byte(6); n < 20; n++ {
		c.add([]chain.LedgerOutput{cachedOutput(n)})
	}
	if _, ok := c.get(cachedOutput(19).OutputID); !ok || c.len() > 4 {
		t.Fatalf("after many more: the newest held %t, %d held; want held, at most 4", ok, c.len())
	}
}

// Reading a chain in order, the cache holds each milestone's created outputs until a
// later milestone spends them, and none of them after.
func TestSpentOutputsLeaveTheCache(t *testing.T) {
	_, _, s := bytesChain(t, 12)
	ctx := ctxT(t)
	c := s.members[0].outputs
	seen := map[chain.OutputID]bool{}
	spentSeen := 0
	for index := uint32(2); index <= 12; index++ {
		vm, err := s.Milestone(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		for _, lo := range cm.Created {
			seen[lo.OutputID] = true
		}
		spentSeen += checkCachedUnspent(t, c, cm, seen)
	}
	if spentSeen == 0 {
		t.Fatal("no milestone spent an output an earlier one created: the check says nothing")
	}
	reg := prometheus.NewRegistry()
	if err := s.Register(reg); err != nil {
		t.Fatal(err)
	}
	if got, err := testutil.GatherAndCount(reg, "indexer_node_cached_outputs"); err != nil || got != 1 {
		t.Fatalf("indexer_node_cached_outputs: %d series, %v", got, err)
	}
	if got := testutil.ToFloat64(s.metrics.cachedOutputs); got != float64(c.len()) || got == 0 {
		t.Fatalf("indexer_node_cached_outputs = %g, the cache holds %d", got, c.len())
	}
}

// checkCachedUnspent: after a milestone, the cache holds what it created and did not
// spend, and none of what it spent. It returns how many spent outputs the source had
// seen created.
func checkCachedUnspent(t *testing.T, c *outputCache, cm *chain.ConfirmedMilestone, seen map[chain.OutputID]bool) int {
	t.Helper()
	spent, n := map[chain.OutputID]bool{}, 0
	for _, ls := range cm.Consumed {
		spent[ls.OutputID] = true
		if seen[ls.OutputID] {
			n++
		}
		if _, ok := c.get(ls.OutputID); ok {
			t.Errorf("milestone %d spent output %s: still cached", cm.Index, ls.OutputID)
		}
	}
	for _, lo := range cm.Created {
		if _, ok := c.get(lo.OutputID); !ok && !spent[lo.OutputID] {
			t.Errorf("milestone %d created output %s unspent: not cached", cm.Index, lo.OutputID)
		}
	}
	return n
}

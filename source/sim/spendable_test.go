package sim

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// With SpendableOutputs set, the wallets' spendable pool climbs to the bound and then
// stays near it while the same chain without the bound keeps growing; every milestone
// still verifies (consolidating transfers carry up to six inputs).
func TestSpendableOutputsHoldThePoolLevel(t *testing.T) {
	const bound, tip = 300, 400
	level := New(Options{Seed: 3, Tip: tip, SpendableOutputs: bound})
	free := New(Options{Seed: 3, Tip: tip})
	var levelPool, freePool []int
	for i := uint32(1); i <= tip; i++ {
		cm, err := level.Confirmed(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chain.Verify(cm, Network()); err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		if _, err := free.Milestone(context.Background(), i); err != nil {
			t.Fatal(err)
		}
		levelPool, freePool = append(levelPool, level.gen.fungible.len()), append(freePool, free.gen.fungible.len())
	}
	t.Logf("pool at 100, 200, 300, 400: bounded %d %d %d %d, free %d %d %d %d",
		levelPool[99], levelPool[199], levelPool[299], levelPool[399],
		freePool[99], freePool[199], freePool[299], freePool[399])
	for i := tip / 2; i < tip; i++ {
		if n := levelPool[i]; n < bound*8/10 || n > bound*12/10 {
			t.Fatalf("milestone %d: %d spendable outputs, want %d ± 20%%", i+1, n, bound)
		}
	}
	if freePool[tip-1] < 2*bound {
		t.Fatalf("without the bound the pool holds %d at the tip: the test would not notice a bound ignored", freePool[tip-1])
	}
}

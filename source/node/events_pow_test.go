package node

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Every real Shimmer block meets the network's minimum score (1500) with its nonce and
// scores far below it with a changed one.
func TestPowScoreOfRealBlocks(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, b := range set.Milestones[17340].Cone {
		m, err := chain.DecodeMessage(b.Raw)
		if err != nil || m.MilestoneOf() != nil {
			continue
		}
		if s := powScore(b.Raw); s < 1500 {
			t.Errorf("block %x scores %.0f; want at least 1500", b.ID, s)
		}
		bad := append([]byte(nil), b.Raw...)
		bad[len(bad)-1] ^= 0x5a
		if s := powScore(bad); s >= 1500 {
			t.Errorf("block %x with a changed nonce scores %.0f", b.ID, s)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no block checked")
	}
}

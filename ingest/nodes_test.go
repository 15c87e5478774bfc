package ingest_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
)

// Of four nodes, one dies, one lags a milestone behind and one lies about a block of each
// milestone: indexing goes on from the healthy ones, and the tables are those of a clean
// run from one node.
func TestSeveralNodesOutliveTheirFaults(t *testing.T) {
	_, cleanCfg, _ := cleanRun(t)
	dead, _ := nodetest.Start(t)
	dead.DieAfter(3)
	lagging, _ := nodetest.Start(t)
	if err := lagging.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	lying, set := nodetest.Start(t)
	lying.CorruptBlock(set.Milestones[17339].Cone[5].ID, true)
	lying.CorruptBlock(set.Milestones[17340].Cone[7].ID, true)
	healthy, _ := nodetest.Start(t)

	st, cfg := newStore(t)
	err := runFromNodeWith(t, st, node.Config{URLs: []string{dead.URL(), lagging.URL(), lying.URL(), healthy.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	assertSameData(t, cfg, cleanCfg)
}

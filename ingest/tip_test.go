package ingest_test

import (
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// A node claiming confirmed milestone 4294967294 beside an honest one does not become
// the tip: a run without StopAt writes up to the honest node's milestone and ends, with
// the tables of a clean run, instead of filling gaps towards the claimed index.
func TestClaimedTipIsNotFollowed(t *testing.T) {
	_, cleanCfg, _ := cleanRun(t)
	honest, _ := nodetest.Start(t)
	liarNode, _ := nodetest.Start(t)
	liar := nodetest.ClaimingConfirmed(t, liarNode, math.MaxUint32-1)

	st, cfg := newStore(t)
	err := realnettest.Ingest(t, st, node.Config{URLs: []string{liar, honest.URL()}},
		ingest.Config{NodeID: 1, Start: 17339}, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertSameData(t, cfg, cleanCfg)
}

package chain_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Access to the real Shimmer data (testdata/realdata, loaded by internal/realdata).

var realMilestones = []uint32{17339, 17340}

// forEachRealMilestone runs test once per milestone of the data, as a subtest named by
// its index.
func forEachRealMilestone(t *testing.T, test func(t *testing.T, index uint32)) {
	t.Helper()
	for _, index := range realMilestones {
		t.Run(fmt.Sprint(index), func(t *testing.T) { test(t, index) })
	}
}

func realSet(t testing.TB) *realdata.Set {
	t.Helper()
	s, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func realMilestone(t testing.TB, index uint32) *realdata.Milestone {
	t.Helper()
	m, ok := realSet(t).Milestones[index]
	if !ok {
		t.Fatalf("no milestone %d in the data", index)
	}
	return m
}

func realBlocks2418187(t testing.TB) []realdata.Block {
	t.Helper()
	bs, err := realdata.Blocks2418187()
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// allRealBlocks returns the cone blocks of both milestones and the 88 of 2418187.
func allRealBlocks(t testing.TB) []realdata.Block {
	t.Helper()
	var out []realdata.Block
	for _, i := range realMilestones {
		out = append(out, realMilestone(t, i).Cone...)
	}
	return append(out, realBlocks2418187(t)...)
}

func decodeReal(t testing.TB, b realdata.Block) *chain.Message {
	t.Helper()
	m, err := chain.DecodeMessage(b.Raw)
	if err != nil {
		t.Fatalf("block %x: %v", b.ID, err)
	}
	return m
}

var realStates = map[string]chain.InclusionState{"noTransaction": chain.NoTransaction, "included": chain.Included, "conflicting": chain.Conflicting}

func realTime(sec uint32) time.Time { return time.Unix(int64(sec), 0).UTC() }

func findOutput(outs []realdata.Output, id chain.OutputID) *realdata.Output {
	for i := range outs {
		if outs[i].OutputID == id {
			return &outs[i]
		}
	}
	return nil
}

func findSpent(spent []realdata.Spent, id chain.OutputID) *realdata.Spent {
	for i := range spent {
		if spent[i].OutputID == id {
			return &spent[i]
		}
	}
	return nil
}

// realIncluded returns the decoded transaction blocks of milestone index that the
// data marks included, in white-flag order.
func realIncluded(t testing.TB, index uint32) (blocks []realdata.Block, txs []*chain.Transaction) {
	t.Helper()
	for _, b := range realMilestone(t, index).Cone {
		if b.InclusionState == "included" {
			blocks = append(blocks, b)
			txs = append(txs, decodeReal(t, b).TransactionOf())
		}
	}
	return blocks, txs
}

// recordedOutputs returns the serialized outputs the ledger records of milestone index
// hold: the created ones, then the consumed ones.
func recordedOutputs(t testing.TB, index uint32) [][]byte {
	t.Helper()
	m := realMilestone(t, index)
	raws := make([][]byte, 0, len(m.Created)+len(m.Consumed))
	for _, o := range m.Created {
		raws = append(raws, o.Raw)
	}
	for _, o := range m.Consumed {
		raws = append(raws, o.Raw)
	}
	return raws
}

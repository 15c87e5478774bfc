package snapshotexport_test

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// TestExportShimmer: the real Shimmer file (17338) bootstrapped into a keyspace.
// Exported at once, the file is the original byte for byte: the same header, outputs
// (ID, block, booking, bytes) in the same order, the same SEPs. After the indexer adds
// the real milestones 17339 and 17340, an export at 17338 holds the ledger at 17340 and
// their diffs, which roll it back to the original's outputs; one at 17340 (the default)
// or 17339 holds the SEPs of Hornet's rule and the diffs at and below the target down to
// 17339; a target outside [17338, 17340] is refused.
func TestExportShimmer(t *testing.T) {
	st := exportStore(t, 1000)
	original := snapshottest.Testdata(t, snapshottest.RealFile)
	orig := snapshottest.MustReadAll(t, original)
	bootstrapFiles(t, st, bootstrap.Config{Full: snapshottest.TestdataPath(snapshottest.RealFile)})

	t.Run("round trip", func(t *testing.T) {
		data, _, err := exportAt(t, st, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := snapshottest.MustReadAll(t, data)
		if !reflect.DeepEqual(*got.Full, *orig.Full) {
			t.Errorf("header %+v\nwant   %+v", *got.Full, *orig.Full)
		}
		sameSet(t, "outputs", outputSet(t, got.Outputs), outputSet(t, orig.Outputs))
		if !slices.Equal(got.SEPs, orig.SEPs) {
			t.Errorf("SEPs %v\nwant %v", got.SEPs, orig.SEPs)
		}
		if !bytes.Equal(data, original) {
			t.Errorf("the export differs from the original from byte %d (%d and %d bytes)", snapshottest.FirstDiff(data, original),
				len(data), len(original))
		}
	})

	cms := nodeMilestones(t, st, 17339, 17340)
	writeMilestones(t, st, 17339, cms...)
	var atL *snapshottest.Contents

	t.Run("at the bootstrap, with diffs", func(t *testing.T) {
		atL = mustExport(t, st, index(17338))
		h, want := *atL.Full, *orig.Full
		want.LedgerIndex, want.OutputCount, want.DiffCount = 17340, h.OutputCount, 2
		if !reflect.DeepEqual(h, want) {
			t.Errorf("header %+v\nwant   %+v", h, want)
		}
		sortedByID(t, atL.Outputs)
		sameDiffs(t, atL.Diffs, []*snapshot.Diff{snapshottest.DiffOf(cms[1]), snapshottest.DiffOf(cms[0])})
		sameSet(t, "the ledger rolled back to 17338", rollBack(outputSet(t, atL.Outputs), atL.Diffs, 17338),
			outputSet(t, orig.Outputs))
		if !slices.Equal(atL.SEPs, orig.SEPs) {
			t.Errorf("SEPs %v\nwant the bootstrap's %v", atL.SEPs, orig.SEPs)
		}
	})

	t.Run("at the ledger index", func(t *testing.T) {
		c := mustExport(t, st, nil)
		h := c.Full
		ms := cms[1].Milestone
		if h.TargetIndex != 17340 || h.LedgerIndex != 17340 || h.TargetMilestoneID != ms.ID() || h.TargetTimestamp != ms.Timestamp {
			t.Errorf("header %+v; want target = ledger = 17340 (%s at %d)", *h, ms.ID(), ms.Timestamp)
		}
		// The diffs Hornet adds at and below the target, down to the bootstrap's.
		sameDiffs(t, c.Diffs, []*snapshot.Diff{snapshottest.DiffOf(cms[1]), snapshottest.DiffOf(cms[0])})
		if atL != nil {
			sameSet(t, "outputs", outputSet(t, c.Outputs), outputSet(t, atL.Outputs))
		}
		want := sortedIDs(slices.Concat(orig.SEPs, blocksOf(cms[0]), blocksOf(cms[1])))
		if !slices.Equal(c.SEPs, want) {
			t.Errorf("%d SEPs, want the bootstrap's and the blocks of 17339 and 17340 (%d)", len(c.SEPs), len(want))
		}
	})

	t.Run("past the bootstrap", func(t *testing.T) {
		c := mustExport(t, st, index(17339))
		sameDiffs(t, c.Diffs, []*snapshot.Diff{snapshottest.DiffOf(cms[1]), snapshottest.DiffOf(cms[0])}) // 17339: the one Hornet adds at the target
		want := sortedIDs(slices.Concat(orig.SEPs, blocksOf(cms[0])))
		if c.Full.TargetIndex != 17339 || !slices.Equal(c.SEPs, want) {
			t.Errorf("target %d, %d SEPs; want 17339, the bootstrap's and the blocks of 17339 (%d)", c.Full.TargetIndex,
				len(c.SEPs), len(want))
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, at := range []uint32{17337, 17341, 0} {
			if _, _, err := exportAt(t, st, index(at), 0); !errors.Is(err, snapshotexport.ErrTargetRange) {
				t.Errorf("-at %d: %v; want ErrTargetRange", at, err)
			}
		}
	})
}

// nodeMilestones reads milestones from the fake node serving the real Shimmer data.
func nodeMilestones(t *testing.T, st *store.Store, indexes ...uint32) []*chain.ConfirmedMilestone {
	t.Helper()
	n, _ := nodetest.Start(t)
	src, err := node.New(node.Config{URL: n.URL()})
	if err != nil {
		t.Fatal(err)
	}
	var out []*chain.ConfirmedMilestone
	for _, i := range indexes {
		vm, err := src.Milestone(ctxFor(t), i)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		out = append(out, cm)
	}
	return out
}

// blocksOf is the blocks a milestone referenced.
func blocksOf(cm *chain.ConfirmedMilestone) []chain.MessageID {
	var out []chain.MessageID
	for _, rm := range cm.Messages {
		out = append(out, rm.ID)
	}
	return out
}

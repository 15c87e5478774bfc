package snapshotexport_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// TestExportMadeUpChain: a made-up network of 60 milestones (a receipt at 25). Indexed
// from 11 without a bootstrap the keyspace's ledger is partial and an export is refused.
// Bootstrapped from a full file at 10 (target = ledger = 10), with 11..30 indexed, an
// export at 10 holds what snapshottest.WriteFull(10, 30) writes: the header (ledger
// index 30, the treasury the receipt left), the ledger at 30, the diffs 30..11 (payloads,
// created and consumed outputs, the receipt's treasury input) and the SEPs; bootstrapping
// it into a fresh keyspace gives the ledger at 10 again. A target outside [10, 30] is
// refused, and so is 10 after a bootstrap from the full file and a delta to 30 (L = 30); milestones indexed past a gap above 30 change nothing of the export. With
// 31..60 indexed too, the SEPs at 30 are the blocks with a child referenced
// after 30 and those at 60 every block of milestones 40..60; sorting in runs on disk
// writes the same file.
func TestExportMadeUpChain(t *testing.T) {
	c := snapshottest.New(snapshottest.Options{Seed: 7, Outputs: 400, Milestones: 60, Receipt: 25, Addresses: 40})
	keys := chainKeys(t, c)
	g := newGraph(c)
	st := exportStore(t, 10)
	if err := st.EnsureNetwork(ctxFor(t), c.Network(), "test"); err != nil {
		t.Fatal(err)
	}
	writeMilestones(t, st, 11, g.milestones(t, 11, 30)...)
	if _, _, err := exportAt(t, st, nil, 0); !errors.Is(err, snapshotexport.ErrLedgerPartial) {
		t.Fatalf("export of a keyspace indexed from 11 without a bootstrap: %v; want ErrLedgerPartial", err)
	}
	dir := t.TempDir()
	full := filepath.Join(dir, "full_10.bin")
	if err := c.WriteFull(full, 10, 10, 0); err != nil {
		t.Fatal(err)
	}
	bootstrapFiles(t, st, bootstrap.Config{Full: full, Keys: keys})
	var at10 []byte

	t.Run("at the bootstrap", func(t *testing.T) {
		var got *snapshottest.Contents
		at10, got = exportRead(t, st, 10)
		want := chainFile(t, c, 10, 30)
		if !reflect.DeepEqual(*got.Full, *want.Full) {
			t.Errorf("header %+v\nwant   %+v", *got.Full, *want.Full)
		}
		sortedByID(t, got.Outputs)
		sameSet(t, "outputs", outputSet(t, got.Outputs), outputSet(t, want.Outputs))
		sameDiffs(t, got.Diffs, want.Diffs)
		if !slices.Equal(got.SEPs, want.SEPs) {
			t.Errorf("SEPs %v, want %v", got.SEPs, want.SEPs)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, at := range []uint32{9, 31} {
			if _, _, err := exportAt(t, st, index(at), 0); !errors.Is(err, snapshotexport.ErrTargetRange) {
				t.Errorf("-at %d: %v; want ErrTargetRange", at, err)
			}
		}
	})

	t.Run("bootstrapped again", func(t *testing.T) {
		if at10 == nil {
			t.Skip("no export at 10")
		}
		path := filepath.Join(dir, "export_10.bin")
		if err := os.WriteFile(path, at10, 0o644); err != nil {
			t.Fatal(err)
		}
		fresh := exportStore(t, 10)
		rec := bootstrapFiles(t, fresh, bootstrap.Config{Full: path, Keys: keys})
		if rec.Index != 10 || rec.Treasury != c.Treasury[10].Amount {
			t.Errorf("record %+v; want index 10, treasury %d", rec, c.Treasury[10].Amount)
		}
		if got, want := unspentIDs(t, fresh), chainLedger(c, 10); !reflect.DeepEqual(got, want) {
			t.Errorf("%d unspent outputs after bootstrapping the export, want the %d of the ledger at 10", len(got), len(want))
		}
		exportAtL(t, fresh, c, 10)
	})

	t.Run("bootstrapped with a delta", func(t *testing.T) {
		// A delta makes its target the bootstrap's ledger index: L = X = 30.
		delta := filepath.Join(dir, "delta_30.bin")
		if err := c.WriteDelta(delta, 10, 30); err != nil {
			t.Fatal(err)
		}
		withDelta := exportStore(t, 10)
		bootstrapFiles(t, withDelta, bootstrap.Config{Full: full, Delta: delta, Keys: keys})
		if _, _, err := exportAt(t, withDelta, index(10), 0); !errors.Is(err, snapshotexport.ErrTargetRange) {
			t.Errorf("-at 10 below the bootstrap at 30: %v; want ErrTargetRange", err)
		}
		got := exportAtL(t, withDelta, c, 30)
		want := chainFile(t, c, 30, 30)
		sameSet(t, "outputs", outputSet(t, got.Outputs), outputSet(t, want.Outputs))
		if !slices.Equal(got.SEPs, want.SEPs) || len(got.Diffs) != 0 {
			t.Errorf("SEPs %v and %d diffs; want the delta's SEPs %v, no diffs", got.SEPs, len(got.Diffs), want.SEPs)
		}
	})

	t.Run("milestones past a gap", func(t *testing.T) {
		// 32..35 indexed, 31 not: the ledger index stays 30, and the outputs 32..35 spent
		// are still in its ledger (their outputs created are not).
		writeMilestones(t, st, 11, g.milestones(t, 32, 35)...)
		got, want := mustExport(t, st, nil), chainFile(t, c, 30, 30)
		if got.Full.LedgerIndex != 30 || got.Full.TargetIndex != 30 {
			t.Errorf("ledger index %d, target %d; want 30", got.Full.LedgerIndex, got.Full.TargetIndex)
		}
		sameSet(t, "outputs", outputSet(t, got.Outputs), outputSet(t, want.Outputs))
	})

	writeMilestones(t, st, 11, g.milestones(t, 31, 60)...)
	var at30 []byte

	t.Run("SEPs by children", func(t *testing.T) {
		var got *snapshottest.Contents
		at30, got = exportRead(t, st, 30)
		want := chainFile(t, c, 30, 60)
		sameSet(t, "outputs", outputSet(t, got.Outputs), outputSet(t, want.Outputs))
		var diffs []*snapshot.Diff // 60..31, then those Hornet adds at and below the target, down to 11
		for i := uint32(60); i >= 11; i-- {
			diffs = append(diffs, c.Diff(i))
		}
		sameDiffs(t, got.Diffs, diffs)
		if wantSEPs := sortedIDs(g.sepsAt30()); !slices.Equal(got.SEPs, wantSEPs) {
			t.Errorf("SEPs at 30 %v\nwant %v", got.SEPs, wantSEPs)
		}
	})

	t.Run("SEPs at the ledger index", func(t *testing.T) {
		got := mustExport(t, st, nil)
		var want []chain.MessageID
		for m := uint32(40); m <= 60; m++ {
			want = append(want, g.blocks[m]...)
		}
		if !slices.Equal(got.SEPs, sortedIDs(want)) {
			t.Errorf("%d SEPs at 60, want the %d blocks of milestones 40..60", len(got.SEPs), len(want))
		}
		if n := len(got.Diffs); n != 30 || got.Diffs[n-1].Index() != 31 {
			t.Errorf("%d diffs (%v); want 60..31", n, snapshottest.DiffIndexes(got.Diffs))
		}
	})

	t.Run("sorted in runs on disk", func(t *testing.T) {
		if at30 == nil {
			t.Skip("no export at 30")
		}
		data, _, err := exportAt(t, st, index(30), 4096)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, at30) {
			t.Errorf("sorting in runs of 4 KiB changes the file from byte %d", snapshottest.FirstDiff(data, at30))
		}
	})
}

// exportAtL exports a keyspace bootstrapped at l with nothing indexed after: the
// treasury (not empty at l, a receipt made it) comes from the bootstrap record. It returns
// the file read back.
func exportAtL(t *testing.T, st *store.Store, c *snapshottest.Chain, l uint32) *snapshottest.Contents {
	t.Helper()
	data, h, err := exportAt(t, st, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tr := c.Treasury[l]; h.TargetIndex != l || h.LedgerIndex != l || h.TreasuryMilestoneID != tr.MilestoneID ||
		h.TreasuryAmount != tr.Amount {
		t.Errorf("header %+v; want target = ledger = %d, treasury %+v", h, l, tr)
	}
	return snapshottest.MustReadAll(t, data)
}

// chainFile is what snapshottest writes for a full file (target, ledger index), read back.
func chainFile(t *testing.T, c *snapshottest.Chain, target, ledger uint32) *snapshottest.Contents {
	t.Helper()
	path := filepath.Join(t.TempDir(), "want.bin")
	if err := c.WriteFull(path, target, ledger, 0); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return snapshottest.MustReadAll(t, data)
}

func chainKeys(t *testing.T, c *snapshottest.Chain) *chain.MilestoneKeys {
	t.Helper()
	keys, err := chain.ParseMilestoneKeys([]byte(c.KeysJSON()))
	if err != nil {
		t.Fatal(err)
	}
	return &keys
}

// unspentIDs is the keyspace's unspent set: output ID -> booking milestone.
func unspentIDs(t *testing.T, st *store.Store) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range storetest.Rows(t, st, "SELECT output_id, milestone_index FROM unspent_outputs") {
		out[r["output_id"].(string)] = r["milestone_index"].(int)
	}
	return out
}

func chainLedger(c *snapshottest.Chain, index uint32) map[string]int {
	out := map[string]int{}
	for id, lo := range c.Ledger(index) {
		out[id.String()] = int(lo.MilestoneIndex)
	}
	return out
}

// graph is a made-up tangle for the chain's milestones 11..60: milestone m references
// blocks A_m and B_m, both children of A_(m-1) (A_10 is the bootstrap's first SEP), and
// milestone 33 also a block C, a child of B_29 and of the bootstrap's second SEP.
type graph struct {
	c      *snapshottest.Chain
	blocks map[uint32][]chain.MessageID // milestone -> its blocks (A, B, C)
	refs   map[uint32][]chain.ReferencedMessage
	seps   []chain.MessageID // the bootstrap's (c.SEPs(10))
}

func newGraph(c *snapshottest.Chain) *graph {
	g := &graph{c: c, blocks: map[uint32][]chain.MessageID{}, refs: map[uint32][]chain.ReferencedMessage{}, seps: c.SEPs(10)}
	prevA := g.seps[0]
	for m := uint32(11); m <= 60; m++ {
		a := g.add(m, uint64(m)*10, prevA)
		g.add(m, uint64(m)*10+1, prevA)
		if m == 33 {
			g.add(m, uint64(m)*10+2, g.blocks[29][1], g.seps[1])
		}
		prevA = a
	}
	return g
}

// add makes a block of milestone m with the parents and nonce.
func (g *graph) add(m uint32, nonce uint64, parents ...chain.MessageID) chain.MessageID {
	ps := sortedIDs(parents)
	msg := &chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: ps, Nonce: nonce}
	raw := msg.Encode()
	id := chain.MessageIDOf(raw)
	g.refs[m] = append(g.refs[m], chain.ReferencedMessage{ID: id, Raw: raw, Message: msg,
		WhiteFlagIndex: uint32(len(g.refs[m])), InclusionState: chain.NoTransaction})
	g.blocks[m] = append(g.blocks[m], id)
	return id
}

// milestones are the chain's milestones from..to with the graph's blocks, their outputs
// decoded from their bytes as a source gives them (an alias's Address is then its state
// controller).
func (g *graph) milestones(t *testing.T, from, to uint32) []*chain.ConfirmedMilestone {
	t.Helper()
	var out []*chain.ConfirmedMilestone
	for m := from; m <= to; m++ {
		cm := *g.c.Milestone(m)
		cm.Messages = g.refs[m]
		cm.Created = slices.Clone(cm.Created)
		for i := range cm.Created {
			cm.Created[i].Output = decoded(t, cm.Created[i].Output)
		}
		cm.Consumed = slices.Clone(cm.Consumed)
		for i := range cm.Consumed {
			cm.Consumed[i].Output = decoded(t, cm.Consumed[i].Output)
		}
		out = append(out, &cm)
	}
	return out
}

func decoded(t *testing.T, o chain.Output) chain.Output {
	t.Helper()
	d, err := chain.DecodeOutput(chain.EncodeOutput(o))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sepsAt30: A_30 (children referenced at 31), B_29 and the bootstrap's second SEP (C,
// referenced at 33); every other block's children were referenced by 30.
func (g *graph) sepsAt30() []chain.MessageID {
	return []chain.MessageID{g.blocks[30][0], g.blocks[29][1], g.seps[1]}
}

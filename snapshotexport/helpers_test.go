package snapshotexport_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

var quiet = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

// exportStore is a store on a fresh keyspace with chunkSize; the test is skipped with
// -short.
func exportStore(t *testing.T, chunkSize uint32) *store.Store {
	t.Helper()
	testcontainers.SkipShort(t)
	st, _ := storetest.New(t, chunkSize)
	return st
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// bootstrapFiles loads snapshot files into st as `indexer bootstrap` does.
func bootstrapFiles(t *testing.T, st *store.Store, cfg bootstrap.Config) store.LedgerBootstrap {
	t.Helper()
	cfg.Log, cfg.Node = quiet, "test"
	rec, err := bootstrap.Run(ctxFor(t), st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// exportAt exports st's ledger with target at (nil: the ledger index) into memory,
// spilling sorted runs of at most runBytes; it returns the file's bytes.
func exportAt(t *testing.T, st *store.Store, at *uint32, runBytes int) ([]byte, snapshot.FullHeader, error) {
	t.Helper()
	f := &snapshottest.MemFile{}
	h, err := snapshotexport.Export(ctxFor(t), st, f, snapshotexport.Config{At: at, TempDir: t.TempDir(), RunBytes: runBytes,
		Log: quiet})
	return f.Buf, h, err
}

// exportRead exports st's ledger with target at, which must succeed; it returns the
// file's bytes and the file read back.
func exportRead(t *testing.T, st *store.Store, at uint32) ([]byte, *snapshottest.Contents) {
	t.Helper()
	data, _, err := exportAt(t, st, index(at), 0)
	if err != nil {
		t.Fatal(err)
	}
	return data, snapshottest.MustReadAll(t, data)
}

// mustExport is exportAt that must succeed; it returns the file read back.
func mustExport(t *testing.T, st *store.Store, at *uint32) *snapshottest.Contents {
	t.Helper()
	data, h, err := exportAt(t, st, at, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := snapshottest.MustReadAll(t, data)
	if !reflect.DeepEqual(*c.Full, h) {
		t.Errorf("Export returned header %+v, the file holds %+v", h, *c.Full)
	}
	return c
}

func index(n uint32) *uint32 { return &n }

// entry is what a test compares of an output entry.
type entry struct {
	Block            chain.MessageID
	Booked, BookedAt uint32
	Raw              string
	SpentBy          chain.TransactionID
}

func entryOf(o *snapshot.Output) entry {
	return entry{Block: o.BlockID, Booked: o.BookedIndex, BookedAt: o.BookedTimestamp, Raw: hex.EncodeToString(o.Raw)}
}

// outputSet is a file's outputs by output ID; a repeated ID fails the test.
func outputSet(t *testing.T, outs []*snapshot.Output) map[chain.OutputID]entry {
	t.Helper()
	set := map[chain.OutputID]entry{}
	for _, o := range outs {
		if _, dup := set[o.OutputID]; dup {
			t.Fatalf("output %s listed twice", o.OutputID)
		}
		set[o.OutputID] = entryOf(o)
	}
	return set
}

// sortedByID fails the test unless the outputs are in order of output ID.
func sortedByID(t *testing.T, outs []*snapshot.Output) {
	t.Helper()
	for i := 1; i < len(outs); i++ {
		if bytes.Compare(outs[i-1].OutputID[:], outs[i].OutputID[:]) >= 0 {
			t.Fatalf("output %d (%s) does not follow output %d (%s) in order of output ID", i, outs[i].OutputID, i-1,
				outs[i-1].OutputID)
		}
	}
}

// diffFacts is what a test compares of a diff: payload, treasury input, created and
// consumed outputs as sets.
type diffFacts struct {
	Index    uint32
	Payload  string
	Treasury *snapshot.TreasuryInput
	Created  map[chain.OutputID]entry
	Consumed map[chain.OutputID]entry
}

func factsOf(d *snapshot.Diff) diffFacts {
	f := diffFacts{Index: d.Index(), Payload: hex.EncodeToString(d.RawMilestone), Treasury: d.Treasury,
		Created: map[chain.OutputID]entry{}, Consumed: map[chain.OutputID]entry{}}
	for i := range d.Created {
		f.Created[d.Created[i].OutputID] = entryOf(&d.Created[i])
	}
	for i := range d.Consumed {
		e := entryOf(&d.Consumed[i].Output)
		e.SpentBy = d.Consumed[i].SpentBy
		f.Consumed[d.Consumed[i].OutputID] = e
	}
	return f
}

// sameDiffs compares two diff lists, in order.
func sameDiffs(t *testing.T, got, want []*snapshot.Diff) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d diffs (%v), want %d (%v)", len(got), snapshottest.DiffIndexes(got), len(want), snapshottest.DiffIndexes(want))
	}
	for i := range got {
		g, w := factsOf(got[i]), factsOf(want[i])
		if g.Index != w.Index || g.Payload != w.Payload || !sameTreasury(g.Treasury, w.Treasury) ||
			!maps.Equal(g.Created, w.Created) || !maps.Equal(g.Consumed, w.Consumed) {
			t.Errorf("diff %d:\n got %s\nwant %s", i, describe(g), describe(w))
		}
	}
}

func sameTreasury(a, b *snapshot.TreasuryInput) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func describe(f diffFacts) string {
	return fmt.Sprintf("milestone %d, payload %d bytes, treasury %+v, created %d, consumed %d", f.Index, len(f.Payload)/2,
		f.Treasury, len(f.Created), len(f.Consumed))
}

// sameSet fails the test unless the two output sets are equal, naming a few differences.
func sameSet(t *testing.T, what string, got, want map[chain.OutputID]entry) {
	t.Helper()
	if maps.Equal(got, want) {
		return
	}
	n := 0
	for _, id := range slices.SortedFunc(maps.Keys(want), func(a, b chain.OutputID) int { return bytes.Compare(a[:], b[:]) }) {
		if g, ok := got[id]; !ok || g != want[id] {
			if n++; n <= 5 {
				t.Errorf("%s: output %s: %+v (held %t), want %+v", what, id, g, ok, want[id])
			}
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			if n++; n <= 10 {
				t.Errorf("%s: output %s is not expected", what, id)
			}
		}
	}
	t.Fatalf("%s: %d outputs, want %d", what, len(got), len(want))
}

// rollBack is the ledger before the diffs (a full file's, backwards from its ledger
// index): each diff's created outputs removed, its consumed ones restored.
func rollBack(ledger map[chain.OutputID]entry, diffs []*snapshot.Diff, target uint32) map[chain.OutputID]entry {
	out := maps.Clone(ledger)
	for _, d := range diffs {
		if d.Index() <= target {
			break
		}
		for i := range d.Created {
			delete(out, d.Created[i].OutputID)
		}
		for i := range d.Consumed {
			out[d.Consumed[i].OutputID] = entryOf(&d.Consumed[i].Output)
		}
	}
	return out
}

func sortedIDs(ids []chain.MessageID) []chain.MessageID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b chain.MessageID) int { return bytes.Compare(a[:], b[:]) })
	return slices.Compact(out)
}

// writeMilestones writes milestones as the indexer does (every row, then the sync row,
// then the sync summary's flush), with start the first milestone indexed.
func writeMilestones(t *testing.T, st *store.Store, start uint32, cms ...*chain.ConfirmedMilestone) {
	t.Helper()
	ctx := ctxFor(t)
	for _, cm := range cms {
		if err := st.Apply(ctx, st.MilestoneWrites(cm, start, nil).Writes, 8); err != nil {
			t.Fatal(err)
		}
		if err := st.WriteSync(ctx, cm.Index, 1, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FlushSyncSummary(ctx); err != nil {
		t.Fatal(err)
	}
}

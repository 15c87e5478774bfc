package archive_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/archivetest"
)

// TestExportImportSameData ingests a sim chain from milestone 3 (so it spends outputs
// created before its start), exports it, imports the archive into a fresh keyspace:
// every table is equal, and every imported milestone is synced with logged_by set.
func TestExportImportSameData(t *testing.T) {
	const from, to = 3, 36
	orig, origCfg := storetest.New(t, testChunk)
	if err := ingestRange(orig, simChain(to), from, to, 0); err != nil {
		t.Fatal(err)
	}
	path := archivetest.ExportFile(t, orig, from, to)
	imported, importedCfg := storetest.New(t, testChunk)
	if err := importFiles(t, imported, path); err != nil {
		t.Fatalf("import: %v", err)
	}
	sameData(t, origCfg, importedCfg)
	ctx := context.Background()
	synced, err := imported.Synced(ctx, 1, to+5)
	if err != nil {
		t.Fatal(err)
	}
	logged, err := imported.LoggedBy(ctx, 1, to+5)
	if err != nil {
		t.Fatal(err)
	}
	if len(synced) != to-from+1 || len(logged) != len(synced) {
		t.Fatalf("%d milestones synced, %d with logged_by; want %d", len(synced), len(logged), to-from+1)
	}
	for i := uint32(from); i <= to; i++ {
		if synced[i] != 1 || logged[i] != 7 {
			t.Fatalf("milestone %d: synced_by %d logged_by %d, want 1 and 7", i, synced[i], logged[i])
		}
	}
	if logged, _ := orig.LoggedBy(ctx, from, to); len(logged) != 0 {
		t.Fatalf("the ingested keyspace has logged_by on %d milestones, want none", len(logged))
	}
}

// TestExportImportInPieces: two contiguous archives imported together give the same
// keyspace as one.
func TestExportImportInPieces(t *testing.T) {
	const from, mid, to = 2, 11, 20
	orig, origCfg := storetest.New(t, testChunk)
	if err := ingestRange(orig, simChain(to), from, to, 0); err != nil {
		t.Fatal(err)
	}
	first, second := archivetest.ExportFile(t, orig, from, mid), archivetest.ExportFile(t, orig, mid+1, to)
	imported, importedCfg := storetest.New(t, testChunk)
	if err := importFiles(t, imported, second, first); err == nil {
		t.Fatal("archives out of order were accepted")
	}
	if err := importFiles(t, imported, first, second); err != nil {
		t.Fatalf("import: %v", err)
	}
	sameData(t, origCfg, importedCfg)
}

// TestExportRefuses: a range with the genesis milestone (its genesis outputs are in no
// per-milestone table) or with a milestone not synced is not exported.
func TestExportRefuses(t *testing.T) {
	orig, _ := storetest.New(t, testChunk)
	if err := ingestRange(orig, simChain(8), 1, 8, 0); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := archive.Export(ctx, orig, 1, 8, discard{}, nil); err == nil || !strings.Contains(err.Error(), "genesis") {
		t.Fatalf("export of the genesis milestone: %v, want refused", err)
	}
	if err := archive.Export(ctx, orig, 2, 8, discard{}, nil); err != nil {
		t.Fatalf("export 2..8: %v", err)
	}
	if err := orig.Unsync(ctx, 5); err != nil {
		t.Fatal(err)
	}
	err := archive.Export(ctx, orig, 2, 8, discard{}, nil)
	if err == nil || !strings.Contains(err.Error(), "5..5 are not synced") {
		t.Fatalf("export of a range with milestone 5 not synced: %v, want refused", err)
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// assertHoldsUpTo checks the keyspace synced exactly from..last, and holds no row of
// the milestones after (their milestone row, their messages).
func assertHoldsUpTo(t *testing.T, st *store.Store, from, last, to uint32) {
	t.Helper()
	ctx := context.Background()
	synced, err := st.Synced(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if len(synced) != int(last-from+1) {
		t.Fatalf("%d milestones synced, want %d..%d", len(synced), from, last)
	}
	for i := from; i <= to; i++ {
		_, isSynced := synced[i]
		_, err := st.Milestone(ctx, i)
		msgs, merr := st.MilestoneMessages(ctx, i)
		if merr != nil {
			t.Fatal(merr)
		}
		if i <= last && (!isSynced || err != nil || len(msgs) == 0) {
			t.Fatalf("milestone %d before the bad record: synced %v, %v, %d messages", i, isSynced, err, len(msgs))
		}
		if i > last && (isSynced || !errors.Is(err, store.ErrNotFound) || len(msgs) != 0) {
			t.Fatalf("milestone %d from the bad record on: synced %v, milestone row %v, %d messages", i, isSynced, err, len(msgs))
		}
	}
}

package bootstrap

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestBootstrapOverAnother: a bootstrap over a keyspace that holds another snapshot's
// ledger is refused with ErrOtherBootstrap naming both ledger indexes, and changes no row,
// unless every milestone between the two is indexed: then it is a no-op that succeeds.
// The full file's target is 10 (ledger index 15); with the delta the ledger is at 30.
func TestBootstrapOverAnother(t *testing.T) {
	c := testChain()
	keys := keysOf(t, c)
	full, delta := files(t, c, 10, 15, 3, 30)
	at10, at30 := Config{Full: full, Keys: keys}, Config{Full: full, Delta: delta, Keys: keys}
	refused := func(t *testing.T, st *store.Store, cfg cql.Config, over Config, names ...string) {
		t.Helper()
		before := dump(t, cfg)
		_, err := bootstrapFiles(t, st, over)
		if !errors.Is(err, ErrOtherBootstrap) {
			t.Fatalf("bootstrap: %v, want ErrOtherBootstrap", err)
		}
		for _, n := range names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("error %q does not name %q", err, n)
			}
		}
		t.Logf("refused: %v", err)
		if diff := testcontainers.DiffDumps(before, dump(t, cfg)); diff != "" {
			t.Errorf("the refused bootstrap changed rows:\n%s", diff)
		}
	}

	t.Run("newer over older", func(t *testing.T) {
		st, cfg := storetest.NewOrSkip(t, 10)
		mustBootstrap(t, st, at10)
		refused(t, st, cfg, at30, "milestone 10", "is at 30", "milestones 11-30")
	})
	t.Run("older over newer", func(t *testing.T) {
		st, cfg := storetest.NewOrSkip(t, 10)
		mustBootstrap(t, st, at30)
		refused(t, st, cfg, at10, "milestone 30", "is at 10", "milestones 11-30")
	})
	t.Run("newer over older with a gap in the indexed milestones", func(t *testing.T) {
		st, cfg := storetest.NewOrSkip(t, 10)
		mustBootstrap(t, st, at10)
		syncRange(t, st, 11, 30, 17)
		refused(t, st, cfg, at30, "milestone 10", "is at 30", "1 of milestones 11-30", "first: 17-17")
	})
	t.Run("after an unfinished one", func(t *testing.T) {
		st, cfg := storetest.NewOrSkip(t, 10)
		if err := st.RecordBootstrapBegun(context.Background(), 30, "test"); err != nil {
			t.Fatal(err)
		}
		refused(t, st, cfg, at10, "milestone 30 began", "is at 10")
		mustBootstrap(t, st, at30) // the same ledger index: it finishes
		assertLedger(t, st, c, 30)
	})
	t.Run("no-op when the milestones between are indexed", func(t *testing.T) {
		st, cfg := storetest.NewOrSkip(t, 10)
		mustBootstrap(t, st, at10)
		syncRange(t, st, 11, 30, 0)
		before := dump(t, cfg)
		rec, err := bootstrapFiles(t, st, at30)
		if err != nil {
			t.Fatalf("bootstrap over milestones indexed up to its ledger: %v", err)
		}
		if rec.Index != 10 {
			t.Errorf("record at %d, want the keyspace's at 10", rec.Index)
		}
		if diff := testcontainers.DiffDumps(before, dump(t, cfg)); diff != "" {
			t.Errorf("the no-op bootstrap changed rows:\n%s", diff)
		}
		if got, _, err := st.LedgerBootstrap(context.Background()); err != nil || got.Index != 10 {
			t.Errorf("stored record at %d (%v), want 10", got.Index, err)
		}
	})
	t.Run("the same ledger again", func(t *testing.T) {
		st, _ := storetest.NewOrSkip(t, 10)
		mustBootstrap(t, st, at30)
		mustBootstrap(t, st, at30)
		assertLedger(t, st, c, 30)
	})
}

func mustBootstrap(t *testing.T, st *store.Store, cfg Config) store.LedgerBootstrap {
	t.Helper()
	rec, err := bootstrapFiles(t, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// syncRange writes the sync rows of from..to but skip (0: none), as indexing leaves them.
func syncRange(t *testing.T, st *store.Store, from, to, skip uint32) {
	t.Helper()
	ctx := context.Background()
	for i := from; i <= to; i++ {
		if i == skip {
			continue
		}
		if err := st.WriteSync(ctx, i, 1, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FlushSyncSummary(ctx); err != nil {
		t.Fatal(err)
	}
}

// dump is every row of the keyspace.
func dump(t *testing.T, cfg cql.Config) map[string][]string {
	t.Helper()
	d, err := testcontainers.Dump(context.Background(), testcontainers.Session(t, cfg).Gocql(), cfg.Keyspace)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

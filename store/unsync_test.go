package store

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A re-sync deletes the sync row just above the row's own timestamp, never at a clock's
// time: whatever the clock of the host that asks (one an hour ahead shadowed the rewrite
// for that hour), a rewrite after it is synced. Shown here by a sync row written one
// microsecond above the delete, earlier than any clock now: it must stand.
func TestUnsyncIsStampedByTheRow(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	const index = 42
	if err := st.WriteSync(ctx, index, 1, 0); err != nil {
		t.Fatal(err)
	}
	var written int64
	if err := st.s.Scan(ctx, cql.SyncWriteTime, []any{st.RangeID(index), int32(index)}, &written); err != nil {
		t.Fatal(err)
	}
	if err := st.Unsync(ctx, index); err != nil {
		t.Fatal(err)
	}
	if synced := syncedAt(t, st, index); synced {
		t.Fatal("milestone still synced after Unsync")
	}
	if err := st.s.Write(ctx, cql.InsertSync, written+2, st.RangeID(index), int32(index), int8(2), unset); err != nil {
		t.Fatal(err)
	}
	if !syncedAt(t, st, index) {
		t.Fatal("a sync row written just above the delete is shadowed: the delete took a clock's timestamp")
	}
	if err := st.Unsync(ctx, index); err != nil { // a second re-sync, then the coordinator-stamped rewrite
		t.Fatal(err)
	}
	if err := st.WriteSync(ctx, index, 1, 0); err != nil {
		t.Fatal(err)
	}
	if !syncedAt(t, st, index) {
		t.Fatal("the rewrite after a re-sync is not synced")
	}
}

func syncedAt(t *testing.T, st *Store, index uint32) bool {
	t.Helper()
	synced, err := st.Synced(context.Background(), index, index)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := synced[index]
	return ok
}

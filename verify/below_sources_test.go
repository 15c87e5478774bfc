package verify_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// A repair that would re-ingest a milestone below the oldest one the sources hold is
// refused (ErrBelowSources, naming indexer import) and leaves the milestone synced: no
// source could fill the gap it would open.
func TestRepairRefusesBelowTheSources(t *testing.T) {
	const n = 12
	st := ingested(t, n)
	ctx := context.Background()
	msgs := storetest.Rows(t, st, "SELECT message_id FROM messages_by_milestone WHERE milestone_index = 8")
	if len(msgs) < 2 {
		t.Fatalf("sim chain too small: %d messages in milestone 8", len(msgs))
	}
	storetest.Rows(t, st, fmt.Sprintf("DELETE FROM messages WHERE message_id = '%s'", msgs[1]["message_id"]))
	if err := st.RecordSourceOldest(ctx, "node-1", 10); err != nil {
		t.Fatal(err)
	}
	_, err := verify.Run(ctx, st, verify.Options{From: 1, To: n, Repair: true, Report: func(verify.Discrepancy) {}})
	if !errors.Is(err, store.ErrBelowSources) {
		t.Fatalf("repair of milestone 8 with sources from 10 on: %v; want ErrBelowSources", err)
	}
	if synced, err := st.Synced(ctx, 8, 8); err != nil || len(synced) != 1 {
		t.Errorf("milestone 8 after the refused repair: synced %v, %v; want still synced", synced, err)
	}
}

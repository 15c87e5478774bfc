package verify_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// TestReceiptRowsVerified: the receipts rows of milestones carrying receipts are checked:
// a deleted one is found missing, -repair writes it again, and verify is clean after.
func TestReceiptRowsVerified(t *testing.T) {
	const n = 6
	st, _ := ingestedWith(t, sim.Options{Seed: 13, Tip: n + 1, Receipts: map[uint32]uint32{3: 900, 5: 901}}, n)
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Fatalf("not clean before the damage: %+v", found)
	}
	storetest.Rows(t, st, "DELETE FROM receipts WHERE shard = 0 AND migrated_at = 901 AND milestone_index = 5")
	d := damage{kind: verify.KindMissing, table: "receipts", key: map[string]any{"milestone_index": 5}}
	if _, found := run(t, st, 1, n, true); !foundDamage(found, d) {
		t.Fatalf("the deleted receipts row of milestone 5 was not found: %+v", found)
	}
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Errorf("not clean after the repair: %+v", found)
	}
	if rows := storetest.Rows(t, st, "SELECT milestone_index FROM receipts WHERE shard = 0"); len(rows) != 2 {
		t.Errorf("%d receipts rows after the repair, want 2", len(rows))
	}
}

package verify_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

const coneChain = 12

// listing is milestone 8's messages_by_milestone partition, in white-flag order.
func listing(t *testing.T, st *store.Store) []map[string]any {
	t.Helper()
	rows := storetest.Rows(t, st, "SELECT white_flag_index, message_id FROM messages_by_milestone WHERE milestone_index = 8")
	if len(rows) < 3 {
		t.Fatalf("sim chain too small: %d messages in milestone 8", len(rows))
	}
	return rows
}

// coneFound: verify reported an incomplete cone of milestone 8 (with a repair when repairing).
func coneFound(t *testing.T, found []verify.Discrepancy, repair bool) {
	t.Helper()
	for _, d := range found {
		if d.Kind == verify.KindIncompleteCone && d.Milestone == 8 && fmt.Sprint(d.Key["milestone_index"]) == "8" &&
			(!repair || d.Repair != "") {
			t.Logf("found: %+v", d)
			return
		}
	}
	t.Errorf("no incomplete_cone for milestone 8 in %+v", found)
}

// cleanAfter: verify finds nothing over the chain and checks every milestone.
func cleanAfter(t *testing.T, st *store.Store) {
	t.Helper()
	if sum, found := run(t, st, 1, coneChain, false); len(found) > 0 || sum.Milestones != coneChain {
		t.Errorf("after repair: %d milestones checked, found %+v", sum.Milestones, found)
	}
}

// A lost messages_by_milestone row removes its message from the rebuilt cone: the
// Merkle roots no longer match the signed milestone. The message row is still stored,
// so the walk from the milestone's parents proves the whole cone and -repair writes
// the listing row again (the milestone stays synced).
func TestLostListingRowIsIncompleteCone(t *testing.T) {
	st := ingested(t, coneChain)
	before := listing(t, st)
	lost := before[1]
	storetest.Rows(t, st, fmt.Sprintf("DELETE FROM messages_by_milestone WHERE milestone_index = 8 AND white_flag_index = %d AND message_id = '%s'",
		lost["white_flag_index"], lost["message_id"]))

	_, found := run(t, st, 1, coneChain, false)
	coneFound(t, found, false)
	sum, found := run(t, st, 1, coneChain, true)
	coneFound(t, found, true)
	if len(sum.Reingest) != 0 {
		t.Errorf("re-ingestion marked for %v: the stored messages hold the cone", sum.Reingest)
	}
	if got := listing(t, st); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("listing after repair: %v, want %v", got, before)
	}
	cleanAfter(t, st)
}

// A message lost with its listing row cannot be found again in the store: verify
// reports the incomplete cone and -repair marks the milestone for re-ingestion.
func TestLostMessageAndListingIsIncompleteCone(t *testing.T) {
	st := ingested(t, coneChain)
	lost := listing(t, st)[1]
	storetest.Rows(t, st, fmt.Sprintf("DELETE FROM messages_by_milestone WHERE milestone_index = 8 AND white_flag_index = %d AND message_id = '%s'",
		lost["white_flag_index"], lost["message_id"]))
	storetest.Rows(t, st, fmt.Sprintf("DELETE FROM messages WHERE message_id = '%s'", lost["message_id"]))

	_, found := run(t, st, 1, coneChain, false)
	coneFound(t, found, false)
	sum, found := run(t, st, 1, coneChain, true)
	coneFound(t, found, true)
	if len(sum.Reingest) != 1 || sum.Reingest[0] != 8 {
		t.Errorf("re-ingestion marked for %v, want [8]", sum.Reingest)
	}
	synced, err := st.Synced(context.Background(), 1, coneChain)
	if _, ok := synced[8]; err != nil || ok {
		t.Errorf("milestone 8 after repair: synced %v, %v; want unsynced", synced, err)
	}
}

// White-flag indexes with a hole (the last message's row moved one past the end): the
// roots over the listing still prove the cone, its order is the listing's, and -repair
// writes the message row's index again.
func TestWhiteFlagHoleIsIncompleteCone(t *testing.T) {
	st := ingested(t, coneChain)
	rows := listing(t, st)
	last := rows[len(rows)-1]
	storetest.Rows(t, st, fmt.Sprintf("UPDATE messages SET white_flag_index = %d WHERE message_id = '%s'",
		len(rows), last["message_id"]))

	_, found := run(t, st, 1, coneChain, false)
	coneFound(t, found, false)
	if _, found = run(t, st, 1, coneChain, true); len(found) == 0 {
		t.Fatal("nothing found to repair")
	}
	got := storetest.Rows(t, st, fmt.Sprintf("SELECT white_flag_index FROM messages WHERE message_id = '%s'", last["message_id"]))
	if fmt.Sprint(got[0]["white_flag_index"]) != fmt.Sprint(len(rows)-1) {
		t.Errorf("white-flag index after repair: %v, want %d", got, len(rows)-1)
	}
	cleanAfter(t, st)
}

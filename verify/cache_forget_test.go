package verify_test

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// TestRepairRaisesCacheGeneration: a repair that rewrites rows raises the store's cache
// generation (the API processes forget their remembered tags when it changes); a check,
// or a repair with nothing to repair, leaves it.
func TestRepairRaisesCacheGeneration(t *testing.T) {
	const n = 6
	st := ingested(t, n)
	generation := func() int64 {
		t.Helper()
		g, err := st.CacheGeneration(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	start := generation()
	run(t, st, 1, n, true)
	if g := generation(); g != start {
		t.Errorf("a repair of a whole chain raised the generation from %d to %d", start, g)
	}
	storetest.Rows(t, st, "DELETE FROM messages_by_milestone WHERE milestone_index = 4 AND white_flag_index = 0 "+
		"AND message_id = '"+storetest.Rows(t, st, "SELECT message_id FROM messages_by_milestone "+
		"WHERE milestone_index = 4 AND white_flag_index = 0")[0]["message_id"].(string)+"'")
	run(t, st, 1, n, false)
	if g := generation(); g != start {
		t.Errorf("a check raised the generation from %d to %d", start, g)
	}
	if sum, _ := run(t, st, 1, n, true); sum.Rewritten == 0 {
		t.Fatalf("repair: %+v, want rows rewritten", sum)
	}
	if g := generation(); g != start+1 {
		t.Errorf("after a repair the generation is %d, want %d", g, start+1)
	}
}

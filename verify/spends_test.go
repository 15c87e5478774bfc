package verify_test

import (
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// spentLater is the transactions output row of an output created in a milestone of the
// chain and spent by an included transaction of a later one, with the spending milestone.
func spentLater(t *testing.T, st *store.Store) (map[string]any, int) {
	t.Helper()
	included := fmt.Sprint(int8(chain.Included))
	rows := storetest.Rows(t, st, "SELECT transaction_id, idx, variant, message_id, milestone_index, inclusion_state FROM transactions")
	created := map[string]map[string]any{}
	for _, r := range rows {
		if r["variant"] == store.VariantOutput && fmt.Sprint(r["inclusion_state"]) == included {
			created[fmt.Sprint(r["transaction_id"], r["idx"])] = r
		}
	}
	for _, r := range rows {
		c, ok := created[fmt.Sprint(r["transaction_id"], r["idx"])]
		if r["variant"] == store.VariantUnlock && fmt.Sprint(r["inclusion_state"]) == included && ok &&
			r["milestone_index"].(int) > c["milestone_index"].(int) {
			return c, r["milestone_index"].(int)
		}
	}
	t.Fatal("the sim chain spends no output it created")
	return nil, 0
}

// A spend whose creation row is gone, of an output a synced milestone created, is a
// named discrepancy of the spending milestone (not only a count), and the repair of the
// creating milestone writes the row again.
func TestMissingCreationOfSpentOutput(t *testing.T) {
	st := ingested(t, coneChain)
	clean, _ := run(t, st, 1, coneChain, false)
	c, spentIn := spentLater(t, st)
	storetest.Rows(t, st, fmt.Sprintf("DELETE FROM transactions WHERE transaction_id = '%s' AND idx = %d AND variant = 'output' AND message_id = '%s'",
		c["transaction_id"], c["idx"], c["message_id"]))

	sum, found := run(t, st, 1, coneChain, false)
	named := false
	for _, d := range found {
		if d.Kind == verify.KindMissingCreation && d.Milestone == uint32(spentIn) &&
			d.Key["transaction_id"] == c["transaction_id"] && fmt.Sprint(d.Key["idx"]) == fmt.Sprint(c["idx"]) {
			named = true
			t.Logf("found: %+v", d)
		}
	}
	if !named {
		t.Errorf("no missing_creation of %v in milestone %d: %+v", c, spentIn, found)
	}
	if sum.UncheckedSpends != clean.UncheckedSpends {
		t.Errorf("unchecked spends %d, %d on the clean chain: the lost creation is counted", sum.UncheckedSpends, clean.UncheckedSpends)
	}
	run(t, st, 1, coneChain, true)
	cleanAfter(t, st)
}

package analytics

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestRowsWithFamilies: Rows writes the six activity family rows of a milestone, and
// RowsWith without the families writes the same rows less those.
func TestRowsWithFamilies(t *testing.T) {
	st := store.New(nil, store.DefaultChunkSize) // RangeID only
	cm := milestoneOf(included([]chain.Output{output(chain.OutputBasic, 100, addr(1))},
		[]chain.Output{output(chain.OutputBasic, 100, addr(2))}))
	tables := func(ws []store.Write) map[string]int {
		out := map[string]int{}
		for _, w := range ws {
			out[w.Table()]++
		}
		return out
	}
	on, off := tables(Rows(cm, st)), tables(RowsWith(Options{})(cm, st))
	if on["milestone_families"] != 6 || off["milestone_families"] != 0 {
		t.Errorf("milestone_families rows: %d with the families, %d without; want 6 and 0", on["milestone_families"], off["milestone_families"])
	}
	for table, n := range off {
		if on[table] != n {
			t.Errorf("%s: %d rows with the families, %d without", table, on[table], n)
		}
	}
	if off["ms_analytics"] != 1 {
		t.Errorf("without the families: %v, want the summary rows", off)
	}
}

package analytics_test

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// checkBlockStates: every milestone's block_activity row counts its blocks by inclusion
// state as the generator's milestones say (counted in expected, not by the package), and
// the chain has conflicting blocks, so that one counted in the wrong state shows.
func checkBlockStates(t *testing.T, st *store.Store, w *want) {
	points, err := st.FamilyRange(context.Background(), analytics.FamilyBlockActivity, 1, tip, tip+1)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != tip {
		t.Fatalf("%d block_activity rows, want %d", len(points), tip)
	}
	var total statesWant
	for _, p := range points {
		f := p.Figures
		got := statesWant{f["confirmed_count"], f["conflicting_count"], f["no_transaction_count"]}
		if want := w.states[p.Index]; got != want {
			t.Fatalf("milestone %d: blocks by state (confirmed, conflicting, no transaction) %+v, want %+v", p.Index, got, want)
		}
		total.confirmed += got.confirmed
		total.conflicting += got.conflicting
		total.noTransaction += got.noTransaction
	}
	t.Logf("blocks by state on the whole chain: %+v", total)
	if total.confirmed == 0 || total.conflicting == 0 || total.noTransaction == 0 {
		t.Fatalf("the chain must have blocks in every state to tell them apart: %+v", total)
	}
}

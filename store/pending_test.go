package store

import (
	"context"
	"testing"
)

// The pending floor only moves down, by conditional writes: a lower estimate lowers it,
// a higher one leaves it.
func TestPendingFloorOnlyLowers(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	for _, step := range []struct{ est, want uint32 }{{100, 100}, {50, 50}, {80, 50}, {4294967294, 50}, {49, 49}} {
		if err := st.LowerPendingFloor(ctx, step.est, "node-a"); err != nil {
			t.Fatal(err)
		}
		if got, err := st.PendingFloor(ctx); err != nil || got != step.want {
			t.Fatalf("after %d: floor %d, %v; want %d", step.est, got, err, step.want)
		}
	}
}

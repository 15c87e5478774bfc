package store

import (
	"context"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// A keyspace records the first network indexed into it and refuses any other; one that
// synced milestones before a network was recorded (the older format) is refused too.
func TestKeyspaceKeepsItsNetwork(t *testing.T) {
	ctx := context.Background()
	sess, _ := testcontainers.NewKeyspaceOrSkip(t)
	st := New(sess, 10)
	if _, ok, err := st.Network(ctx); ok || err != nil {
		t.Fatalf("fresh keyspace: network recorded (%v, %v)", ok, err)
	}
	shimmer := chain.Shimmer()
	if err := st.EnsureNetwork(ctx, shimmer, "node-1"); err != nil {
		t.Fatal(err)
	}
	if err := New(sess, 10).EnsureNetwork(ctx, shimmer, "node-2"); err != nil {
		t.Fatalf("the same network again: %v", err)
	}
	err := New(sess, 10).EnsureNetwork(ctx, chain.IOTAMainnet(), "node-2")
	if !errors.Is(err, ErrNetworkMismatch) {
		t.Fatalf("another network: %v, want ErrNetworkMismatch", err)
	}
	reader := New(sess, 10)
	rec, ok, err := reader.Network(ctx)
	if err != nil || !ok || rec != RecordOf(shimmer) || reader.HRP() != "smr" {
		t.Fatalf("recorded %+v (%v, %v), HRP %q", rec, ok, err, reader.HRP())
	}

	old, _ := testcontainers.NewKeyspace(t)
	if _, err := New(old, 10).AdvanceWatermark(ctx, NewestSyncedConcern, 42, "", "1"); err != nil {
		t.Fatal(err)
	}
	for range 2 { // and it stays refused
		if err := New(old, 10).EnsureNetwork(ctx, shimmer, "node-1"); !errors.Is(err, ErrNetworkMismatch) {
			t.Fatalf("keyspace synced before any network was recorded: %v, want ErrNetworkMismatch", err)
		}
	}
}

package ingest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// The creation of an output spent by milestone 17339 but created before it comes from
// the keyspace when the keyspace holds it (here: the output-table and transactions rows
// of an unfinished earlier write of 17339). The node is asked too: its metadata naming
// another booking refuses the milestone with nothing of it written; a node that answers
// 404 for the metadata, or one that agrees, leaves the same data as a clean run.
func TestNodeCreationFromKeyspace(t *testing.T) {
	_, cleanCfg, set := cleanRun(t)
	alias := set.Milestones[17339].Consumed[4] // an alias output booked in 17327, keyed by its alias ID
	basic := set.Milestones[17339].Consumed[0] // a basic output booked in 17001
	t.Run("metadata disagrees", func(t *testing.T) {
		st, _ := newStore(t)
		n, _ := nodetest.Start(t)
		holdCreations(t, st, n)
		n.MisstateOutput(alias.OutputID, &nodetest.Booking{BlockID: alias.BlockID, Index: alias.Booked + 1,
			Timestamp: alias.BookedTimestamp})
		err := runHeld(t, st, n)
		if !errors.Is(err, node.ErrCreationMismatch) || !errors.As(err, new(*source.Refusal)) ||
			!strings.Contains(err.Error(), chain.OutputID(alias.OutputID).String()) ||
			!strings.Contains(err.Error(), "booked in milestone 17327, the node says 17328") {
			t.Fatalf("err = %v, want a refusal naming %s, 17327 and 17328", err, chain.OutputID(alias.OutputID))
		}
		assertNothingOf(t, st, 17339)
		lo, ok, err := st.StoredCreation(context.Background(), alias.OutputID)
		if err != nil || !ok || lo.MilestoneIndex != 17327 {
			t.Fatalf("the keyspace's creation after the refusal: %v %+v, %v", ok, lo, err)
		}
	})
	t.Run("metadata 404", func(t *testing.T) {
		st, cfg := newStore(t)
		n, _ := nodetest.Start(t)
		holdCreations(t, st, n)
		n.HideOutputMetadata(alias.OutputID, true)
		n.HideOutputMetadata(basic.OutputID, true)
		if err := runHeld(t, st, n); err != nil {
			t.Fatal(err)
		}
		storetest.AssertNoGaps(t, st, 17339, 17340)
		assertSameData(t, cfg, cleanCfg)
	})
	t.Run("metadata agrees", func(t *testing.T) {
		st, cfg := newStore(t)
		n, _ := nodetest.Start(t)
		holdCreations(t, st, n)
		if err := runHeld(t, st, n); err != nil {
			t.Fatal(err)
		}
		if got := n.Count(nodetest.RouteOutputMetadata); got < len(set.Milestones[17339].Consumed) {
			t.Fatalf("%d metadata requests, want the node asked for each of 17339's %d spent outputs",
				got, len(set.Milestones[17339].Consumed))
		}
		storetest.AssertNoGaps(t, st, 17339, 17340)
		assertSameData(t, cfg, cleanCfg)
	})
}

// heldTables are the tables holding an output's creation.
var heldTables = map[string]bool{"basic_outputs": true, "alias_outputs": true, "nft_outputs": true,
	"foundry_outputs": true, "transactions": true}

// holdCreations writes what an unfinished earlier write of milestone 17339 (start 17339)
// left: the rows of its output tables and transactions, among them the creations of the
// outputs it spends, created before it. No message, milestone or sync row.
func holdCreations(t *testing.T, st *store.Store, n *nodetest.Server) {
	t.Helper()
	src := realnettest.Source(t, node.Config{URL: n.URL()})
	realnettest.WriteMilestone(t, st, src, func(w store.Write) bool { return heldTables[w.Table()] })
}

// runHeld ingests milestones 17339-17340 from n with a source that reads the creations
// the keyspace holds, as `indexer run -source node` wires it.
func runHeld(t *testing.T, st *store.Store, n *nodetest.Server) error {
	t.Helper()
	return runFromNodeWith(t, st, node.Config{URL: n.URL(), Attempts: 2, Created: st})
}

// assertNothingOf fails unless milestone index has no sync, milestones or messages row.
func assertNothingOf(t *testing.T, st *store.Store, index uint32) {
	t.Helper()
	ctx := context.Background()
	if synced, err := st.Synced(ctx, index, index); err != nil || len(synced) != 0 {
		t.Fatalf("milestone %d: sync %v, %v; want no sync row", index, synced, err)
	}
	if _, err := st.Milestone(ctx, index); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("milestone %d has a milestones row (%v)", index, err)
	}
	if got := countMessagesOf(t, st, index); got != 0 {
		t.Fatalf("milestone %d: %d messages written", index, got)
	}
}

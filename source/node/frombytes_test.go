package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// bytesChain is a simulated chain with conflicting transactions, served by a fake node,
// and a source on it.
func bytesChain(t *testing.T, last uint32) (*sim.Sim, *nodetest.Server, *Source) {
	t.Helper()
	src := sim.New(sim.Options{Seed: 5, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.5, ConflictRate: 0.05})
	n := nodetest.StartSim(t, src, 1, last)
	keys := sim.Network().Keys
	return src, n, newSource(t, n, func(c *Config) { c.Keys = &keys })
}

// readInOrder asks milestones first..last in order, 8 at once as the pipeline asks, and
// compares each with the simulator's, verdicts included.
func readInOrder(t *testing.T, ctx context.Context, s *Source, src *sim.Sim, first, last uint32) {
	t.Helper()
	if _, err := s.Latest(ctx); err != nil { // the tip bounds the read-ahead
		t.Fatal(err)
	}
	var next atomic.Uint32
	next.Store(first - 1)
	var g errgroup.Group // on ctx: the reads ahead of one call go on into the next
	for range 8 {
		g.Go(func() error {
			for i := next.Add(1); i <= last; i = next.Add(1) {
				if err := sameVerdicts(ctx, s, src, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// sameVerdicts reads milestone index from s and compares its referenced blocks with the
// simulator's: IDs, bytes, white-flag order, inclusion states and conflict reasons.
func sameVerdicts(ctx context.Context, s *Source, src *sim.Sim, index uint32) error {
	vm, err := s.Milestone(ctx, index)
	if err != nil {
		return err
	}
	got := vm.Confirmed()
	want, err := src.Confirmed(ctx, index)
	if err != nil {
		return err
	}
	if len(got.Messages) != len(want.Messages) {
		return fmt.Errorf("milestone %d: %d blocks, the simulator %d", index, len(got.Messages), len(want.Messages))
	}
	for i, w := range want.Messages {
		g := got.Messages[i]
		if g.ID != w.ID || string(g.Raw) != string(w.Raw) || g.WhiteFlagIndex != w.WhiteFlagIndex ||
			g.InclusionState != w.InclusionState || g.ConflictReason != w.ConflictReason {
			return fmt.Errorf("milestone %d, white-flag %d: %s %v reason %d, the simulator's %s %v reason %d",
				index, i, g.ID, g.InclusionState, g.ConflictReason, w.ID, w.InclusionState, w.ConflictReason)
		}
	}
	return nil
}

// conflictsIn counts the simulator's conflicting blocks of milestones first..last.
func conflictsIn(t *testing.T, src *sim.Sim, first, last uint32) (conflicts, blocks int) {
	t.Helper()
	for i := first; i <= last; i++ {
		cm, err := src.Confirmed(ctxT(t), i)
		if err != nil {
			t.Fatal(err)
		}
		blocks += len(cm.Messages)
		for _, m := range cm.Messages {
			if m.InclusionState == chain.Conflicting {
				conflicts++
			}
		}
	}
	return conflicts, blocks
}

func walks(s *Source, how string) int {
	return int(testutil.ToFloat64(s.members[0].c.m.walks.WithLabelValues(how)))
}

// Once the milestones before it were walked, a milestone's cone is walked from the
// blocks' bytes alone: one request a block of the cone, a metadata request only for a
// conflicting transaction's reason, and every verdict as the simulator made it.
func TestWarmConesWalkFromBytes(t *testing.T) {
	const last = 70
	src, n, s := bytesChain(t, last)
	ctx := ctxT(t)
	readInOrder(t, ctx, s, src, 2, 20)
	if got := walks(s, "metadata"); got < 1 || got > warmWalks {
		t.Fatalf("%d walks with the metadata for the first 19 milestones, want 1 to %d", got, warmWalks)
	}
	n.ResetCounts()
	bytes, fellBack := walks(s, "bytes"), walks(s, "bytes_then_metadata")
	readInOrder(t, ctx, s, src, 21, last)
	conflicts, blocks := conflictsIn(t, src, 21, last)
	if conflicts == 0 {
		t.Fatal("the chain has no conflicting transaction to read the reason of")
	}
	if got := walks(s, "bytes") - bytes; got < last-20-s.ahead.ceiling {
		t.Fatalf("%d of %d milestones walked from bytes", got, last-20)
	}
	if got := walks(s, "bytes_then_metadata") - fellBack; got != 0 {
		t.Fatalf("%d walks from bytes fell back to the metadata on a warm source", got)
	}
	// Milestones read ahead before the counts were reset asked theirs before it.
	if got := n.Count(routeMetadata); got > conflicts {
		t.Fatalf("%d metadata requests for milestones 21-%d, which hold %d conflicting blocks", got, last, conflicts)
	}
	if got := n.Count("blocks/{blockId}"); got > blocks {
		t.Fatalf("%d block requests for milestones 21-%d, whose cones hold %d blocks", got, last, blocks)
	}
}

// A walk from bytes that cannot tell where its cone ends (here: the marks of earlier
// walks are forgotten at once) reaches into the past until its budget stops it, and
// the metadata decides: every cone still as the simulator made it.
func TestUnmarkedConesFallBackToMetadata(t *testing.T) {
	const last = 40
	src, _, s := bytesChain(t, last)
	for _, m := range s.members {
		m.reached = newReachedCache(4)
	}
	ctx := ctxT(t)
	readInOrder(t, ctx, s, src, 2, last)
	if got := walks(s, "bytes_then_metadata"); got == 0 {
		t.Fatalf("no walk from bytes fell back to the metadata (%d from bytes)", walks(s, "bytes"))
	}
}

// A node whose utxo-changes leave out an included transaction's output, read from bytes:
// the transaction looks conflicting, and the node's own metadata, asked for its reason,
// says included: the milestone is refused as the node's lie, nothing of it returned.
func TestBytesWalkRefusesUTXOChangesThatLeaveOutAnOutput(t *testing.T) {
	const last, lying = 30, 25
	src := sim.New(sim.Options{Seed: 5, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.5, ConflictRate: -1})
	n := nodetest.StartSim(t, src, 1, last)
	route := fmt.Sprintf("/milestones/by-index/%d/utxo-changes", lying)
	proxy := utxoProxy(t, n, route, func(changes *tip25.UTXOChangesJSON) {
		changes.CreatedOutputs = slices.DeleteFunc(changes.CreatedOutputs, func(id string) bool {
			return strings.HasSuffix(id, "0000") // every transaction's output 0
		})
	})
	keys := sim.Network().Keys
	s, err := New(Config{URL: proxy.URL, Attempts: 1, Keys: &keys, ReadAhead: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	for i := uint32(2); i < lying; i++ {
		if err := sameVerdicts(ctx, s, src, i); err != nil {
			t.Fatal(err)
		}
	}
	cm, err := s.Milestone(ctx, lying)
	if cm != nil || !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), "utxo-changes leave out") {
		t.Fatalf("milestone %d: %v, %v; want a refusal of the node's utxo-changes", lying, cm, err)
	}
	if got := walks(s, "bytes"); got == 0 {
		t.Fatal("no milestone was walked from bytes: the test proves nothing")
	}
}

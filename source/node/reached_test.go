package node

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

const routeMetadata = "blocks/{blockId}/metadata"

// Only a walk of an earlier milestone ends another walk; a later or the same milestone's
// walk lowers the entry to the lowest walk; the oldest entries are forgotten first.
func TestReachedCache(t *testing.T) {
	c := newReachedCache(2)
	x, y, z := chain.MessageID{1}, chain.MessageID{2}, chain.MessageID{3}
	steps := []struct {
		id      chain.MessageID
		index   uint32
		earlier bool
	}{
		{x, 10, false}, {x, 10, false}, {x, 11, true}, {x, 9, false}, {x, 10, true},
		{y, 5, false}, {z, 5, false}, {x, 10, false}, {z, 6, true},
	}
	for i, st := range steps {
		if got := c.reach(st.id, st.index); got != st.earlier {
			t.Fatalf("step %d: reach(%x, %d) = %v, want %v", i, st.id[:1], st.index, got, st.earlier)
		}
	}
	if c.m.Len() != 2 {
		t.Fatalf("%d entries, want at most 2", c.m.Len())
	}
}

// The real milestones walked out of order, then again: 17340's walk reaches blocks of
// 17339's cone (its parents outside its cone), which must not end 17339's own walk
// afterwards; once 17339 was walked, the blocks its walk reached end 17340's walk
// without a request, so 17340's cone is walked from bytes alone (a metadata request
// only for a conflicting block's reason), and every cone is still exactly the
// milestone's.
func TestWalksOutOfOrder(t *testing.T) {
	n, set, s, ctx, net := sourceOnFakeNode(t)
	m, earlier := set.Milestones[17340], set.Milestones[17339]
	if len(intersect(outside(m), coneIDs(earlier))) == 0 {
		t.Fatal("no block of 17339's cone is a parent in 17340's cone: the test proves nothing")
	}
	conflicts := 0
	for _, b := range m.Cone {
		if b.InclusionState == "conflicting" {
			conflicts++
		}
	}
	requests := map[uint32][]int{}
	for _, index := range []uint32{17340, 17339, 17340, 17339} {
		before := n.Count(routeMetadata)
		vm, err := s.Milestone(ctx, index)
		if err != nil {
			t.Fatalf("milestone %d: %v", index, err)
		}
		cm := vm.Confirmed()
		if _, err := chain.Verify(cm, net); err != nil {
			t.Fatalf("milestone %d: %v", index, err)
		}
		checkAgainstData(t, cm, set.Milestones[index])
		requests[index] = append(requests[index], n.Count(routeMetadata)-before)
	}
	if r := requests[17340]; r[0] < len(m.Cone) || r[1] != conflicts {
		t.Fatalf("17340's metadata requests %v: want one a block of its cone (%d), then one a conflicting "+
			"block (%d) once 17339 was walked", r, len(m.Cone), conflicts)
	}
	if r := requests[17339]; r[1] != r[0] {
		t.Fatalf("17339's metadata requests %v: the walk of 17340 must not shorten it", r)
	}
}

func coneIDs(m *realdata.Milestone) map[[32]byte]bool {
	ids := map[[32]byte]bool{}
	for _, b := range m.Cone {
		ids[b.ID] = true
	}
	return ids
}

// outside is the parents of m and of its cone's blocks outside its cone, but the genesis.
func outside(m *realdata.Milestone) map[[32]byte]bool {
	in := coneIDs(m)
	ids := map[[32]byte]bool{}
	add := func(parents [][32]byte) {
		for _, p := range parents {
			if !in[p] && p != [32]byte{} {
				ids[p] = true
			}
		}
	}
	add(m.Parents)
	for _, b := range m.Cone {
		add(b.Parents)
	}
	return ids
}

func intersect(a, b map[[32]byte]bool) map[[32]byte]bool {
	both := map[[32]byte]bool{}
	for id := range a {
		if b[id] {
			both[id] = true
		}
	}
	return both
}

// Walks of both milestones at once, on one source, many times over: whichever runs first,
// every cone comes back exactly the milestone's.
func TestConcurrentWalks(t *testing.T) {
	n, set := fakeNode(t)
	for range 5 {
		s := newSource(t, n)
		ctx := ctxT(t)
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for k := range 16 {
			index := uint32(17339 + k%2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				vm, err := s.Milestone(ctx, index)
				if err == nil && len(vm.Confirmed().Messages) != len(set.Milestones[index].Cone) {
					err = errors.New("wrong cone size")
				}
				if err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

// A walk of the same milestone does not end another walk of it: the blocks a first walk
// of 17340 reached do not shorten a second one, which still asks for every block.
func TestSameMilestoneWalkNotTrusted(t *testing.T) {
	n, set, s, ctx, _ := sourceOnFakeNode(t)
	for _, b := range set.Milestones[17340].Cone {
		s.members[0].reached.reach(b.ID, 17340)
	}
	before := n.Count(routeMetadata)
	vm, err := s.Milestone(ctx, 17340)
	if err != nil {
		t.Fatal(err)
	}
	cm := vm.Confirmed()
	checkAgainstData(t, cm, set.Milestones[17340])
	if got := n.Count(routeMetadata) - before; got < len(set.Milestones[17340].Cone) {
		t.Fatalf("%d metadata requests for a cone of %d blocks", got, len(set.Milestones[17340].Cone))
	}
}

// A milestone whose signatures fail is refused before its cone is walked: its parents,
// which the node chose, are never remembered as reached.
func TestUnsignedMilestoneWalksNothing(t *testing.T) {
	n, _ := fakeNode(t)
	keys := sim.Network().Keys
	s := newSource(t, n, func(c *Config) { c.Keys = &keys })
	_, err := s.Milestone(ctxT(t), 17340)
	if !errors.Is(err, chain.ErrMilestoneSignature) || !errors.As(err, new(*source.Refusal)) {
		t.Fatalf("milestone 17340 under other keys: %v; want a signature refusal", err)
	}
	if got := n.Count(routeMetadata); got != 0 || s.members[0].reached.m.Len() != 0 {
		t.Fatalf("%d metadata requests, %d blocks reached; want none", got, s.members[0].reached.m.Len())
	}
}

// A simulated chain's milestones walked at once in shuffled order, twice, on one source:
// each cone is the simulator's, block for block, whichever walks ran before.
func TestShuffledWalksOnSimChain(t *testing.T) {
	const last = 40
	src := sim.New(sim.Options{Seed: 7, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.125})
	n := nodetest.StartSim(t, src, 1, last)
	keys := sim.Network().Keys
	s := newSource(t, n, func(c *Config) { c.Keys = &keys })
	ctx := ctxT(t)
	order := make([]uint32, 0, 2*(last-1))
	for range 2 {
		for i := uint32(2); i <= last; i++ {
			order = append(order, i)
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, index := range order {
		g.Go(func() error { return sameVerdicts(gctx, s, src, index) })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

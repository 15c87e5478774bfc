package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// resetSource is another chain of the same network name and keys (a private network
// reset), holding only milestones from oldest on.
type resetSource struct {
	*sim.Sim
	oldest uint32
}

func (s *resetSource) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	if index < s.oldest {
		return nil, source.Refuse(fmt.Errorf("milestone %d: %w", index, source.ErrNotHeld))
	}
	return s.Sim.Milestone(ctx, index)
}

// A network reset under the same name and keys is refused with a named error, and
// nothing of the other chain is written: at start when the source holds the keyspace's
// anchor milestone, else at the first milestone that meets the keyspace's chain.
func TestNetworkResetRefused(t *testing.T) {
	testcontainers.SkipShort(t)
	for name, oldest := range map[string]uint32{"anchor held": 1, "anchor pruned": 11} {
		t.Run(name, func(t *testing.T) {
			st, _ := newStore(t)
			ingestAll(t, st, simSource(10), 10, nil)
			other := simOptions(20)
			other.Seed = 7
			src := &resetSource{Sim: sim.New(other), oldest: oldest}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			err := ingest.New(src, st, ingest.Config{NodeID: 1, StopAt: 20}, nil, nil).Run(ctx)
			if !errors.Is(err, store.ErrChainBreak) || !errors.Is(err, store.ErrNetworkMismatch) {
				t.Fatalf("Run over a reset network: %v; want ErrChainBreak", err)
			}
			if synced, err := st.Synced(ctx, 1, 20); err != nil || len(synced) != 10 {
				t.Fatalf("synced %d milestones (%v); want the 10 of the first chain only", len(synced), err)
			}
			if _, err := st.Milestone(ctx, 11); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("milestone 11 of the other chain: %v; want nothing written", err)
			}
		})
	}
}

// Filling a gap checks the milestones on both sides: a milestone that does not lead to
// the keyspace's next one is refused.
func TestGapFillMeetsTheChain(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	ingestAll(t, st, simSource(12), 12, nil)
	for i := uint32(5); i <= 8; i++ {
		if err := deleteSync(st, i); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	other := simOptions(12)
	other.Seed = 7
	// The other chain from 5 on: it names another 4 as previous, so it is refused at once.
	err := ingest.New(&resetSource{Sim: sim.New(other), oldest: 5}, st, ingest.Config{NodeID: 1, Start: 5, StopAt: 8}, nil, nil).Run(ctx)
	if !errors.Is(err, store.ErrChainBreak) {
		t.Fatalf("gap fill from another chain: %v; want ErrChainBreak", err)
	}
	// The same chain fills it.
	if err := ingest.New(simSource(12), st, ingest.Config{NodeID: 1, Start: 5, StopAt: 8}, nil, nil).Run(ctx); err != nil {
		t.Fatal(err)
	}
	storetest.AssertNoGaps(t, st, 1, 12)
}

// The keyspace's milestone after a filled range must name the range's last as previous.
func TestCheckNext(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	ingestAll(t, st, simSource(6), 6, nil)
	ctx := context.Background()
	other := simOptions(6)
	other.Seed = 7
	for name, src := range map[string]*sim.Sim{"same chain": simSource(6), "other chain": sim.New(other)} {
		vm, err := src.Milestone(ctx, 4)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		err = st.CheckNext(ctx, cm)
		if broke := errors.Is(err, store.ErrChainBreak); broke != (name == "other chain") {
			t.Errorf("%s: CheckNext(4) = %v", name, err)
		}
	}
}

// The milestone keys are recorded with the network: a key set that drops a recorded key
// or changes the threshold is refused, one that adds a key (a rotation) is not.
func TestMilestoneKeysRecorded(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	ctx := context.Background()
	net := sim.Network()
	if err := st.EnsureNetwork(ctx, net, "t"); err != nil {
		t.Fatal(err)
	}
	added := net
	added.Keys.Ranges = append(append([]chain.KeyRange(nil), net.Keys.Ranges...), chain.KeyRange{PublicKey: [32]byte{9}, Start: 100})
	dropped := net
	dropped.Keys.Ranges = net.Keys.Ranges[1:]
	threshold := net
	threshold.Keys.Threshold++
	for name, c := range map[string]struct {
		n       chain.Network
		refused bool
	}{"a key added": {added, false}, "a key dropped": {dropped, true}, "threshold raised": {threshold, true}} {
		err := st.EnsureNetwork(ctx, c.n, "t")
		if errors.Is(err, store.ErrKeysChanged) != c.refused || (!c.refused && err != nil) {
			t.Errorf("%s: EnsureNetwork = %v; refused %v wanted", name, err, c.refused)
		}
	}
}

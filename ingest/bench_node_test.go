package ingest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// nodeBenchRounds is how often the two real milestones go through each stage.
const nodeBenchRounds = 10

// BenchmarkNodeMilestone indexes the real Shimmer milestones 17339-17340 from the fake
// node over loopback and splits the time of one milestone into fetch (the milestone,
// its cone walked through block metadata, blocks and utxo-changes, outputs created
// before the range), verify (signatures, white-flag order, Merkle roots, ledger) and
// write (every row, analytics included, then the sync row, into a fresh keyspace), each
// measured alone. The fetch runs again with 1 ms added to every node answer, as a node
// on the local network would. Figures are printed, not asserted.
func BenchmarkNodeMilestone(b *testing.B) {
	testcontainers.SkipShort(b)
	fake, _ := nodetest.Start(b)
	for range b.N {
		fetch, vms := benchFetch(b, fake, 0)
		fake.ResetCounts()
		fetchLAN, _ := benchFetch(b, fake, time.Millisecond)
		requests := fake.Counts()
		verify := benchVerify(b, vms)
		write := benchWrite(b, fake, vms)
		printNodeBench(fetch, fetchLAN, verify, write, requests)
	}
}

// benchFetch fetches both milestones nodeBenchRounds times, each round with a new source
// (nothing cached), and returns the time of each milestone fetch.
func benchFetch(b *testing.B, fake *nodetest.Server, latency time.Duration) ([]time.Duration, []*chain.VerifiedMilestone) {
	fake.SetLatency(latency)
	defer fake.SetLatency(0)
	var took []time.Duration
	var vms []*chain.VerifiedMilestone
	for range nodeBenchRounds {
		src, err := node.New(node.Config{URL: fake.URL()})
		if err != nil {
			b.Fatal(err)
		}
		vms = vms[:0]
		for _, index := range []uint32{17339, 17340} {
			start := time.Now()
			vm, err := src.Milestone(context.Background(), index)
			took = append(took, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			vms = append(vms, vm)
		}
	}
	return took, vms
}

func benchVerify(b *testing.B, vms []*chain.VerifiedMilestone) []time.Duration {
	var took []time.Duration
	for range nodeBenchRounds {
		for _, vm := range vms {
			start := time.Now()
			if _, err := chain.Verify(vm.Confirmed(), chain.Shimmer()); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
	}
	return took
}

// benchWrite writes both milestones, in order, into a fresh keyspace per round, as the
// pipeline writes one milestone.
func benchWrite(b *testing.B, fake *nodetest.Server, vms []*chain.VerifiedMilestone) []time.Duration {
	ctx := context.Background()
	var took []time.Duration
	for range nodeBenchRounds {
		st, _ := benchStore(b, benchNode{})
		src, err := node.New(node.Config{URL: fake.URL()})
		if err != nil {
			b.Fatal(err)
		}
		p := New(src, st, Config{NodeID: 1, Start: 17339}, nil, benchQuiet)
		p.AddRows(analytics.Rows)
		if err := p.resolveNetwork(ctx); err != nil {
			b.Fatal(err)
		}
		for _, vm := range vms {
			start := time.Now()
			if err := p.writeMilestone(ctx, vm, 17340); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
	}
	return took
}

func printNodeBench(fetch, fetchLAN, verify, write []time.Duration, requests map[string]int) {
	perMilestone := func(d []time.Duration) time.Duration { return median(d) }
	seq := perMilestone(fetch) + perMilestone(verify) + perMilestone(write)
	// An estimate as if 8 milestones were fetched and 4 written at once (the Window was 4;
	// a wider one overlaps more, but a milestone measured alone says nothing of how much);
	// verification runs one milestone at a time. The slowest stage sets the pace.
	paced := max(perMilestone(fetchLAN)/8, perMilestone(verify), perMilestone(write)/4)
	total := 0
	for _, n := range requests {
		total += n
	}
	fmt.Printf("BenchmarkNodeMilestone: Shimmer milestones 17339-17340 (38 and 43 blocks), %d rounds, medians per milestone\n"+
		"  fetch (loopback)           %8s\n  fetch (1 ms per answer)    %8s   (%d requests per milestone)\n"+
		"  verify                     %8s\n  write (rows + sync row)    %8s\n"+
		"  one after the other        %8s   -> %s per 1000 milestones\n"+
		"  pipelined (8 fetched, 4 written at once, 1 ms node) %s per milestone -> %s per 1000 milestones\n",
		nodeBenchRounds, perMilestone(fetch).Round(10*time.Microsecond), perMilestone(fetchLAN).Round(10*time.Microsecond),
		total/(2*nodeBenchRounds), perMilestone(verify).Round(10*time.Microsecond), perMilestone(write).Round(10*time.Microsecond),
		seq.Round(10*time.Microsecond), (seq * 1000).Round(time.Second), paced.Round(10*time.Microsecond),
		(paced * 1000).Round(time.Second))
}

// median is the middle of xs once sorted (the upper one of an even count).
func median[T cmp.Ordered](xs []T) T {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

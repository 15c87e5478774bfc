package loadtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
)

// oldLimits are cmd/api's limits before the queues: refusals at once, no connection
// cap, no minimum send rate (the in-flight slot is freed when the answer starts in both).
func apiDefaults() api.Limits { return api.DefaultLimits() }

func oldLimits() api.Limits {
	l := api.DefaultLimits()
	l.ClientQueue, l.GlobalQueue, l.ClientConnections, l.MinSendRate = 0, 0, 0, 0
	return l
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkLimits serves one sim chain through two APIs side by side, one with the old
// limits (oldLimits) and one with cmd/api's defaults, and measures both in one run:
//
//   - open loop: LOAD_BENCH_RATE (1000) req/s of the route mix over 64 clients, each from
//     an address of its own, in LOAD_BENCH_ROUNDS (3) rounds of LOAD_BENCH_SECONDS (10) s
//     against each API in turn, each first every other round (with LOAD_BENCH_TOGETHER set, against both at once, so
//     that both see the same machine: on a shared machine whose load changes from one
//     round to the next); the p99 of each round, and the ratio of the medians;
//   - a wallet batch: one client asks for 200 outputs at once (200 connections, as the
//     SDK's get_outputs does), twice against each API (a fresh client address each
//     time); the time to the last answer and the 429s.
func BenchmarkLimits(b *testing.B) {
	st := chainStore(b, 60)
	type api struct{ name, base string }
	apis := []api{{"old", serveAPI(b, st, oldLimits())}, {"new", serveAPI(b, st, apiDefaults())}}
	rate := float64(envInt("LOAD_BENCH_RATE", 1000))
	rounds, seconds := envInt("LOAD_BENCH_ROUNDS", 3), envInt("LOAD_BENCH_SECONDS", 10)
	for b.Loop() {
		p99 := map[string][]time.Duration{}
		together := os.Getenv("LOAD_BENCH_TOGETHER") != ""
		for round := range rounds {
			var mu sync.Mutex
			var wg sync.WaitGroup
			order := apis
			if round%2 == 1 { // in turn, each goes first every other round
				order = []api{apis[1], apis[0]}
			}
			for _, a := range order {
				run := func() {
					rep, err := RunOpen(context.Background(), OpenConfig{BaseURL: a.base, Rate: rate,
						Duration: time.Duration(seconds) * time.Second, Clients: 64, DistinctClients: true, Seed: int64(round)})
					if err != nil {
						b.Error(err)
						return
					}
					tot := rep.Phase.Total
					mu.Lock()
					defer mu.Unlock()
					p99[a.name] = append(p99[a.name], tot.P99)
					fmt.Printf("open loop round %d, %s limits: %d sent, p50 %s, p99 %s, 4xx %d (unexpected %d), 5xx %d, "+
						"errors %d\n", round+1, a.name, rep.Sent, tot.P50, tot.P99, tot.S4xx, tot.Unexpected, tot.S5xx, tot.Errors)
				}
				if together {
					wg.Go(run)
				} else {
					run()
				}
			}
			wg.Wait()
			if b.Failed() {
				b.FailNow()
			}
		}
		old, cur := median(p99["old"]), median(p99["new"])
		fmt.Printf("open loop %g req/s: median p99 old %s, new %s: new/old %.2f\n", rate, old, cur,
			float64(cur)/float64(old))
		for i, a := range apis {
			for try := range 2 {
				took, codes := walletBatch(b, a.base, fmt.Sprintf("127.0.3.%d", 1+2*i+try), 200)
				fmt.Printf("wallet batch of 200 outputs at once, %s limits: last answer after %s, answers %v\n",
					a.name, took.Round(time.Millisecond), codes)
			}
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// walletBatch sends n output reads at once from one client (address local), as a
// wallet's get_outputs does, and returns the time to the last answer and the count of
// each status.
func walletBatch(b *testing.B, base, local string, n int) (time.Duration, map[int]int) {
	ids, err := Discover(context.Background(), clientFrom("", 4), base, 300)
	if err != nil || len(ids.Outputs) == 0 {
		b.Fatalf("discover outputs: %v (%d)", err, len(ids.Outputs))
	}
	c := clientFrom(local, n)
	defer c.CloseIdleConnections()
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	start := time.Now()
	for k := range n {
		url := base + "/api/core/v2/outputs/" + ids.Outputs[k%len(ids.Outputs)]
		wg.Go(func() {
			status := get(context.Background(), c, url)
			mu.Lock()
			codes[status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return time.Since(start), codes
}

package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/gocql/gocql"
	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// BenchmarkExplorerBalance measures GET /api/explorer/v2/balance of the richest owner
// (the most outputs to read) and of an address without outputs, over loopback HTTP,
// next to the same reads issued straight through gocql (the ledger index, then per
// owning role one hint read and its partitions' pages, the roles in parallel as the
// route does). Figures are printed, not asserted.
func BenchmarkExplorerBalance(b *testing.B) {
	e, g := newBenchEnv(b)
	w := newExplorerWant(e.truth)
	rich, most := "", uint64(0)
	for a, bal := range w.balances {
		if bal.total > most || bal.total == most && a < rich {
			rich, most = a, bal.total
		}
	}
	empty := chain.Address{}.Bech32(sim.HRP) // names no output
	routes := []benchRoute{
		{"balance (richest)", explorerPath + "/balance/" + rich, func(ctx context.Context) error {
			return directBalance(ctx, g, rich)
		}},
		{"balance (unknown)", explorerPath + "/balance/" + empty, func(ctx context.Context) error {
			return directBalance(ctx, g, empty)
		}},
	}
	b.ResetTimer()
	lines := []string{fmt.Sprintf("%-20s %-32s %-32s %s", "route", "API p50 / p99 / req/s", "gocql p50 / p99 / req/s", "p50 ratio")}
	for _, r := range routes {
		if code, body := e.fetch(b, r.path); code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", r.path, code, body)
		}
		viaAPI := load(b, func(ctx context.Context) error { return getOK(ctx, benchClient, e.srv.URL+r.path) })
		direct := load(b, r.direct)
		lines = append(lines, fmt.Sprintf("%-20s %-32s %-32s %.2fx", r.name, viaAPI, direct,
			ratio(viaAPI, direct)))
	}
	b.Logf("loopback load, %d clients x %s per measurement (richest owner: %d tokens):\n%s", benchClients,
		benchDuration, most, strings.Join(lines, "\n"))
}

// directBalance issues the balance route's reads: the sync span and the newest
// milestone, then each owning role's hint partitions and their unspent rows.
func directBalance(ctx context.Context, g *gocql.Session, address string) error {
	parts, err := scanPartitions(ctx, g, cql.SyncPartitions)
	if err != nil {
		return err
	}
	var oldest, newest int32
	if err := g.Query(cql.SyncOldest.CQL, parts[0]).WithContext(ctx).Scan(&oldest); err != nil {
		return err
	}
	if err := g.Query(cql.SyncNewest.CQL, parts[len(parts)-1]).WithContext(ctx).Scan(&newest); err != nil {
		return err
	}
	if err := drain(ctx, g, cql.MilestoneByIndex, 1, newest); err != nil {
		return err
	}
	eg, ctx := errgroup.WithContext(ctx)
	for _, or := range store.OwnerRoles {
		eg.Go(func() error {
			rngs, err := scanPartitions(ctx, g, cql.AddressHints, address, or.Kind.String(), or.Role)
			if err != nil {
				return err
			}
			for _, r := range rngs {
				err := drain(ctx, g, cql.UnspentPages.ByAddress, 1000, address, r, or.Kind.String(), or.Role,
					int64(0), "", int64(math.MaxInt64), "")
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	return eg.Wait()
}

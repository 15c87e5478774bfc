package api

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// BenchmarkIndexerBasicByAddress measures TIP-26 basic outputs by address over loopback
// HTTP next to the same reads straight through gocql (the address's hints, then its
// unspent rows partition by partition, oldest first, until the page is full), on a
// fixed 60-milestone sim chain. Figures are printed, not asserted.
func BenchmarkIndexerBasicByAddress(b *testing.B) {
	e, g := newBenchEnv(b)
	model := e.unspentOutputs()
	addr := valuesOf(model).owner
	n := 0
	for i := range model {
		if model[i].kind == "basic" && model[i].owner() == addr {
			n++
		}
	}
	b.ResetTimer()
	lines := []string{fmt.Sprintf("%-28s %-32s %-32s %s", "query", "API p50 / p99 / req/s", "gocql p50 / p99 / req/s",
		"p50 ratio")}
	for _, size := range []int{10, indexer.Tip26DefaultPageSize} {
		path := fmt.Sprintf("%s/outputs/basic?address=%s&pageSize=%d", indexer.Tip26Prefix, addr, size)
		viaAPI := load(b, func(ctx context.Context) error { return getOK(ctx, benchClient, e.srv.URL+path) })
		direct := load(b, func(ctx context.Context) error { return directUnspent(ctx, g, addr, size+1) })
		lines = append(lines, fmt.Sprintf("%-28s %-32s %-32s %.2fx", fmt.Sprintf("basic by address, page %d", size),
			viaAPI, direct, ratio(viaAPI, direct)))
	}
	b.Logf("TIP-26 basic outputs of the busiest owner (%d unspent), loopback load, %d clients x %s per measurement:\n%s",
		n, benchClients, benchDuration, strings.Join(lines, "\n"))
}

// directUnspent reads what a first page of basic outputs by address needs: the hint
// partitions, then the unspent rows of each, oldest first, until need rows are read.
func directUnspent(ctx context.Context, g *gocql.Session, addr string, need int) error {
	parts, err := scanPartitions(ctx, g, cql.AddressHints, addr, "basic", store.RoleAddress)
	if err != nil {
		return err
	}
	slices.Sort(parts)
	for _, part := range parts {
		n, err := drainPage(ctx, g, cql.UnspentPages.ByAddress, need, addr, part, "basic", store.RoleAddress,
			int64(0), "", int64(math.MaxInt64), "")
		if err != nil {
			return err
		}
		if need -= n; need <= 0 {
			break
		}
	}
	return nil
}

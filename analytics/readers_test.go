package analytics_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// checkMilestoneReaders: the API readers return the generator's figures, newest first,
// across ms_range_id partitions, and refuse unbounded ranges.
func checkMilestoneReaders(t *testing.T, st *store.Store, w *want) {
	ctx := context.Background()
	got, err := analytics.MilestoneStats(ctx, st, 40, 120) // partitions 0, 1 and 2
	if err != nil {
		t.Fatal(err)
	}
	var wantStats []store.MilestoneStat
	for i := uint32(119); i >= 40; i-- {
		m := w.ms[i]
		wantStats = append(wantStats, store.MilestoneStat{MilestoneIndex: i, MessageCount: m.messages,
			TransactionCount: m.txs, TransferredTokens: m.transferred})
	}
	if !reflect.DeepEqual(got, wantStats) {
		t.Errorf("MilestoneStats(40, 120): %d rows, want %d newest first: got %v", len(got), len(wantStats), got)
	}
	addr := busiestAddress(w)
	wantAddr := addressStats(w, addr)
	gotAddr, err := analytics.AddressStats(ctx, st, mustParse(t, addr).Local(st.HRP()), 1, tip+1)
	if err != nil || !reflect.DeepEqual(gotAddr, wantAddr) {
		t.Errorf("AddressStats(%s): %v, %v; want %d rows %v", addr, gotAddr, err, len(wantAddr), wantAddr)
	}
	for _, r := range [][2]uint32{{5, 5}, {6, 5}, {1, 2 + analytics.MaxMilestoneRange}} {
		if _, err := analytics.MilestoneStats(ctx, st, r[0], r[1]); !errors.Is(err, analytics.ErrBadRange) {
			t.Errorf("MilestoneStats(%d, %d): %v, want ErrBadRange", r[0], r[1], err)
		}
	}
}

func busiestAddress(w *want) string {
	best := ""
	for addr, byMs := range w.flows {
		if best == "" || len(byMs) > len(w.flows[best]) || len(byMs) == len(w.flows[best]) && addr < best {
			best = addr
		}
	}
	return best
}

func addressStats(w *want, addr string) []store.AddressStat {
	var out []store.AddressStat
	for _, i := range slices.Backward(slices.Sorted(maps.Keys(w.flows[addr]))) {
		out = append(out, store.AddressStat{MilestoneIndex: i, SentTokens: w.flows[addr][i].sent,
			RecvTokens: w.flows[addr][i].recv})
	}
	return out
}

func mustParse(t *testing.T, addr string) chain.Address {
	a, err := chain.ParseAddress(addr)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestDailyStatsAcrossYears reads dates on both sides of a new year (two partitions).
func TestDailyStatsAcrossYears(t *testing.T) {
	t.Parallel()
	st, _ := newStore(t)
	ctx := context.Background()
	for n, d := range []string{"2021-12-30", "2021-12-31", "2022-01-01", "2022-01-02"} {
		day := date(d)
		err := st.WriteDailyStat(ctx, day, n+3, n+2, n+1)
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := analytics.DailyStats(ctx, st, date("2021-12-31"), date("2022-01-01"))
	want := []store.DailyStat{{Date: "2022-01-01", TotalAddresses: 5, SendAddresses: 4, RecvAddresses: 3},
		{Date: "2021-12-31", TotalAddresses: 4, SendAddresses: 3, RecvAddresses: 2}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("DailyStats: %v, %v; want %v", got, err, want)
	}
	if _, err := analytics.DailyStats(ctx, st, date("2022-01-02"), date("2022-01-01")); !errors.Is(err, analytics.ErrBadRange) {
		t.Errorf("reversed range: %v, want ErrBadRange", err)
	}
}

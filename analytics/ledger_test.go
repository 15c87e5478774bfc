package analytics_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

func ptr[T any](v T) *T { return &v }

// TestHoldingAt: TIP-18's conditions at a time, one case each.
func TestHoldingAt(t *testing.T) {
	const now = 1000
	base := store.UnspentRow{Kind: "basic", Owner: "owner", Amount: 100}
	with := func(f func(r *store.UnspentRow)) store.UnspentRow { r := base; f(&r); return r }
	for _, c := range []struct {
		name string
		row  store.UnspentRow
		want analytics.Holding
	}{
		{"plain", base, analytics.Holding{Owner: "owner", Total: 100, Available: 100, SigLocked: 100}},
		{"sdr", with(func(r *store.UnspentRow) { r.DustReturnAmount = ptr(int64(30)) }),
			analytics.Holding{Owner: "owner", Total: 100, Available: 70}},
		{"timelock running", with(func(r *store.UnspentRow) { r.Timelock = ptr(int64(now + 1)) }),
			analytics.Holding{Owner: "owner", Total: 100}},
		{"timelock reached", with(func(r *store.UnspentRow) { r.Timelock = ptr(int64(now)) }),
			analytics.Holding{Owner: "owner", Total: 100, Available: 100}},
		{"expiration running", with(func(r *store.UnspentRow) {
			r.Expiration, r.ExpirationReturnAddress = ptr(int64(now+1)), "back"
		}), analytics.Holding{Owner: "owner", Total: 100, Available: 100}},
		{"expired, sdr lifted", with(func(r *store.UnspentRow) {
			r.Expiration, r.ExpirationReturnAddress, r.DustReturnAmount = ptr(int64(now)), "back", ptr(int64(30))
		}), analytics.Holding{Owner: "back", Total: 100, Available: 100}},
		{"expired, timelock running", with(func(r *store.UnspentRow) {
			r.Expiration, r.ExpirationReturnAddress, r.Timelock = ptr(int64(now-5)), "back", ptr(int64(now+5))
		}), analytics.Holding{Owner: "back", Total: 100}},
		{"alias: state controller", store.UnspentRow{Kind: "alias", Owner: "ctl", StateController: "ctl", Governor: "gov", Amount: 9},
			analytics.Holding{Owner: "ctl", Total: 9, Available: 9, SigLocked: 9}},
		{"foundry: alias address", store.UnspentRow{Kind: "foundry", Owner: "alias-addr", Amount: 8},
			analytics.Holding{Owner: "alias-addr", Total: 8, Available: 8, SigLocked: 8}},
	} {
		if got := analytics.HoldingAt(&c.row, now); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestRichestAndDistribution: ranks by balance then address; decades by integer log10.
func TestRichestAndDistribution(t *testing.T) {
	balances := map[string]uint64{"a": 5, "b": 900, "c": 900, "d": 10, "e": 99, "f": 1_000_000, "g": 9}
	var got []string
	for _, r := range analytics.Richest(balances, 4) {
		got = append(got, r.Address)
		if want := balances[r.Address]; uint64(r.Balance) != want || r.Rank != int32(len(got)) {
			t.Errorf("rank %+v: want balance %d, rank %d", r, want, len(got))
		}
	}
	if !slices.Equal(got, []string{"f", "b", "c", "e"}) {
		t.Errorf("richest: %v", got)
	}
	type bucket struct{ mag, n, total int64 }
	var dist []bucket
	for _, d := range analytics.Distribution(balances) {
		dist = append(dist, bucket{int64(d.Magnitude), d.AddressCount, d.TotalBalance})
	}
	if want := []bucket{{0, 2, 14}, {1, 2, 109}, {2, 2, 1800}, {6, 1, 1_000_000}}; !slices.Equal(dist, want) {
		t.Errorf("distribution %v, want %v", dist, want)
	}
	for b, m := range map[uint64]int32{1: 0, 9: 0, 10: 1, 999: 2, 1000: 3, 1<<63 - 1: 18} {
		if got := analytics.Magnitude(b); got != m {
			t.Errorf("Magnitude(%d) = %d, want %d", b, got, m)
		}
	}
}

// TestSchedulerRunsLedgerAnalyticsOncePerDay: two schedulers' start-up passes compute
// the ledger analytics once, at the newest synced milestone; the pass the chain's next
// date triggers the same (wall-clock) day leaves them alone.
func TestSchedulerRunsLedgerAnalyticsOncePerDay(t *testing.T) {
	t.Parallel()
	st, cfg, src := ingestedSim(t, 150)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var schedulers []*analytics.Scheduler
	for _, owner := range []string{"node-a", "node-b"} {
		s := analytics.NewScheduler(secondStore(t, cfg, owner == "node-b", st), analytics.SchedulerConfig{
			Owner: owner, CheckEvery: 50 * time.Millisecond})
		schedulers = append(schedulers, s)
		go func() { _ = s.Run(ctx) }()
	}
	waitFor(t, time.Minute, "both start-up passes", func() bool {
		return schedulers[0].Passes() >= 1 && schedulers[1].Passes() >= 1
	})
	first, err := st.LatestLedgerAnalytics(context.Background())
	if err != nil || first.LedgerIndex != 150 || first.Addresses == 0 {
		t.Fatalf("after start-up: %+v, %v; want ledger index 150 with addresses", first, err)
	}
	rich, err := st.RichestAddresses(context.Background(), 150, analytics.LedgerTop)
	if err != nil || len(rich) != min(first.Addresses, analytics.LedgerTop) {
		t.Errorf("richest rows: %d, %v; want %d", len(rich), err, min(first.Addresses, analytics.LedgerTop))
	}
	ingestUpTo(t, st, src, tip)
	waitFor(t, time.Minute, "a pass for the new date", func() bool {
		return schedulers[0].Passes() >= 2 || schedulers[1].Passes() >= 2
	})
	again, err := st.LatestLedgerAnalytics(context.Background())
	if err != nil || !again.ComputedAt.Equal(first.ComputedAt) || again.LedgerIndex != 150 {
		t.Errorf("after a second pass the same day: %+v, %v; want the first run's %+v", again, err, first)
	}
}

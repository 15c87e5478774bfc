package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// realSnapshot is Shimmer's ledger at 17338 as a TIP-35 full snapshot and the file's own
// description of it (.expected.json).
const realSnapshot = "../../source/snapshot/testdata/snapshot_dev_full_17338"

// snapshotFacts is what the test reads of the .expected.json.
type snapshotFacts struct {
	Outputs map[string]struct {
		Kind                 string `json:"kind"`
		Owner                string `json:"owner"`
		Amount               string `json:"amount"`
		MilestoneIndexBooked uint32 `json:"milestoneIndexBooked"`
		Bytes                string `json:"bytes"`
	} `json:"outputs"`
	States map[string]struct {
		LedgerOutputCount int64  `json:"ledgerOutputCount"`
		LedgerTotal       string `json:"ledgerTotal"`
	} `json:"states"`
}

// TestLedgerFamiliesFoldEqualsRecount: the real snapshot at 17338 bootstrapped, 17339-17340
// ingested with the analytics rows and folded; at 17338, 17339 and 17340 a recount of the
// ledger equals the folded figures and balances, and the recount at 17338 agrees with
// the snapshot file's own outputs. After the fold of 17339 is spoilt, `indexer analytics
// -from 17339 -to 17340 -fold-batch 1` recomputes the rows and refolds a milestone per
// run, and the fold equals the recount again; so it does after 17339-17340 are re-synced from the node.
func TestLedgerFamiliesFoldEqualsRecount(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, cfg := bootstrappedAt17338(t, ctx)
	quiet := slog.New(slog.DiscardHandler)
	fake, _ := nodetest.Start(t)
	err := realnettest.Ingest(t, st, node.Config{URL: fake.URL(), Created: st}, ingest.Config{Start: 17339, StopAt: 17340}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	fold := analytics.LedgerFold{Store: st, Owner: "test"}
	res, err := fold.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := store.LedgerFamiliesState{Base: 17338, Watermark: 17340, Complete: true}
	if res.State.Base != want.Base || res.State.Watermark != want.Watermark || !res.State.Complete {
		t.Fatalf("fold state %+v, want %+v", res.State, want)
	}
	facts := readSnapshotFacts(t)
	for _, m := range []uint32{17338, 17339, 17340} {
		c := checkRecountEqualsFold(t, ctx, st, m)
		checkStateTotals(t, c, facts, m)
		if m == 17338 {
			checkSnapshotOutputs(t, c, facts)
		}
	}
	if err := checkFold(ctx, st); err != nil {
		t.Errorf("indexer analytics -ledger's check: %v", err)
	}

	spoilFold(t, ctx, st, 17339)
	// One milestone per fold run: the refold crosses batches as it does past 1000 milestones.
	if err := cmdAnalytics(ctx, append([]string{"-from", "17339", "-to", "17340", "-fold-batch", "1"}, dbArgs(cfg)...)); err != nil {
		t.Fatal(err)
	}
	for _, m := range []uint32{17339, 17340} {
		checkRecountEqualsFold(t, ctx, st, m)
	}

	resync(t, ctx, st, fake.URL(), 17339, 17340)
	if _, err := fold.Run(ctx); err != nil {
		t.Fatal(err)
	}
	for _, m := range []uint32{17338, 17339, 17340} {
		checkRecountEqualsFold(t, ctx, st, m)
	}
}

// bootstrappedAt17338 is a new keyspace bootstrapped from the real snapshot at 17338.
func bootstrappedAt17338(t *testing.T, ctx context.Context) (*store.Store, cql.Config) {
	t.Helper()
	st, cfg := storetest.NewOrSkip(t, 0)
	quiet := slog.New(slog.DiscardHandler)
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: realSnapshot + ".bin", Node: "test", Log: quiet}); err != nil {
		t.Fatal(err)
	}
	return st, cfg
}

// resync unsyncs the milestones [from, to] and ingests them again from the node, with
// the analytics rows, as the admin re-sync does.
func resync(t *testing.T, ctx context.Context, st *store.Store, url string, from, to uint32) {
	t.Helper()
	for m := from; m <= to; m++ {
		if err := st.Unsync(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	quiet := slog.New(slog.DiscardHandler)
	err := realnettest.Ingest(t, st, node.Config{URL: url, Created: st}, ingest.Config{Start: from, StopAt: to}, quiet)
	if err != nil {
		t.Fatalf("re-ingesting %d-%d: %v", from, to, err)
	}
}

// spoilFold overwrites the folded figures and the changed balances of milestone m with
// zeros, as a fold of wrong deltas would leave them.
func spoilFold(t *testing.T, ctx context.Context, st *store.Store, m uint32) {
	t.Helper()
	var rows []store.FamilyFigures
	for _, family := range analytics.LedgerFamilies {
		rows = append(rows, store.FamilyFigures{Family: family, Figures: map[string]int64{}})
	}
	d, ok, err := st.ReadLedgerDelta(ctx, m)
	if err != nil || !ok {
		t.Fatalf("delta row of %d: %t, %v", m, ok, err)
	}
	zero := map[string]int64{}
	for a := range d.Balances {
		zero[a] = 0
	}
	if err := st.WriteFamilies(ctx, m, time.Now(), rows); err != nil {
		t.Fatal(err)
	}
	if err := st.WriteAddressBalances(ctx, m, zero, 4); err != nil {
		t.Fatal(err)
	}
}

// checkRecountEqualsFold compares the recount at m with the stored families and
// address balances at m.
func checkRecountEqualsFold(t *testing.T, ctx context.Context, st *store.Store, m uint32) analytics.LedgerCount {
	t.Helper()
	rec, _, err := st.Protocol(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := analytics.RecountLedger(ctx, st, m, rec.Params)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int64{}
	for _, family := range analytics.LedgerFamilies {
		p, ok, err := st.MilestoneFamily(ctx, family, m)
		if err != nil || !ok {
			t.Fatalf("%s at %d: %t, %v", family, m, ok, err)
		}
		for k, v := range p.Figures {
			stored[family+"."+k] = v
		}
	}
	if !maps.Equal(stored, c.Figures) {
		t.Errorf("at %d the fold stored\n%v\nthe recount gives\n%v", m, stored, c.Figures)
	}
	for a, b := range c.Balances {
		got, err := st.AddressBalanceAt(ctx, a, m)
		if err != nil || got != b {
			t.Errorf("balance of %s at %d: stored %d (%v), recount %d", a, m, got, err, b)
		}
	}
	return c
}

// checkStateTotals compares the output count and the amount of the ledger at m with the
// snapshot file's description of that state, and the key bytes with 34 per output.
func checkStateTotals(t *testing.T, c analytics.LedgerCount, facts snapshotFacts, m uint32) {
	t.Helper()
	state, ok := facts.States[fmt.Sprint(m)]
	if !ok {
		return
	}
	var count, amount int64
	for _, kind := range []string{"basic", "alias", "nft", "foundry"} {
		count += c.Figures["ledger_outputs."+kind+".count"]
		amount += c.Figures["ledger_outputs."+kind+".amount"]
	}
	if count != state.LedgerOutputCount || fmt.Sprint(amount) != state.LedgerTotal {
		t.Errorf("at %d: %d outputs of %d, the file says %d of %s", m, count, amount, state.LedgerOutputCount, state.LedgerTotal)
	}
	if got := c.Figures["ledger_size.total_key_bytes"]; got != 34*count {
		t.Errorf("at %d: key bytes %d, want 34 per output (%d)", m, got, 34*count)
	}
}

// checkSnapshotOutputs compares the recount at 17338 with sums over the file's outputs.
func checkSnapshotOutputs(t *testing.T, c analytics.LedgerCount, facts snapshotFacts) {
	t.Helper()
	want := map[string]int64{}
	owners := map[string]int64{}
	for id, o := range facts.Outputs {
		amount, err := strconv.ParseInt(o.Amount, 10, 64)
		raw, herr := hex.DecodeString(strings.TrimPrefix(o.Bytes, "0x"))
		if err != nil || herr != nil {
			t.Fatalf("output %s: %v %v", id, err, herr)
		}
		want["ledger_outputs."+o.Kind+".count"]++
		want["ledger_outputs."+o.Kind+".amount"] += amount
		want["ledger_size.total_data_bytes"] += int64(len(raw)) + 40
		if o.MilestoneIndexBooked == 0 {
			want["unclaimed_tokens.unclaimed_count"]++
			want["unclaimed_tokens.unclaimed_amount"] += amount
		}
		owners[o.Owner] += amount
	}
	want["address_balance.address_with_balance_count"] = int64(len(owners))
	for k, v := range want {
		if c.Figures[k] != v {
			t.Errorf("17338 %s: recount %d, the snapshot file's outputs %d", k, c.Figures[k], v)
		}
	}
	if !maps.Equal(owners, c.Balances) {
		t.Errorf("17338 balances: recount %v, the snapshot file's owners %v", c.Balances, owners)
	}
}

func readSnapshotFacts(t *testing.T) snapshotFacts {
	return readFacts(t, realSnapshot+".expected.json")
}

// readFacts reads what a snapshot file's .expected.json says of it.
func readFacts(t *testing.T, path string) snapshotFacts {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f snapshotFacts
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFoldBatchFlag: -fold-batch outside 1..FoldBatch is refused, naming the flag, before
// the database is opened.
func TestFoldBatchFlag(t *testing.T) {
	for _, v := range []string{"0", fmt.Sprint(analytics.FoldBatch + 1)} {
		err := cmdAnalytics(context.Background(), []string{"-ledger", "-fold-batch", v, "-cql-hosts", "127.0.0.1:1"})
		if err == nil || !strings.Contains(err.Error(), "-fold-batch "+v) {
			t.Errorf("-fold-batch %s: %v, want it refused", v, err)
		}
	}
}

// TestMilestoneRangeFlags: numbers are milestone indexes, dates are left to dateRange,
// and a bad or reversed range names its flag.
func TestMilestoneRangeFlags(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
		err      string
	}{
		{"17339", "17340", true, ""},
		{"17339", "", true, ""},
		{"2024-03-10", "2024-03-11", false, ""},
		{"17339x", "", true, "-from"},
		{"17339", "2024-03-11", true, "-to"},
		{"17340", "17339", true, "before -from"},
	} {
		_, _, ok, err := milestoneRange(c.from, c.to)
		if ok != c.ok || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("milestoneRange(%q, %q) = %t, %v; want %t and an error naming %q", c.from, c.to, ok, err, c.ok, c.err)
		}
	}
}

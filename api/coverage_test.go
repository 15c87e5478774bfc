package api

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/wallet"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coverageServer serves st with a health age that the sim's old milestones pass.
func coverageServer(t *testing.T, st *store.Store) string {
	t.Helper()
	srv := httptest.NewServer(New(st, Config{RequestTimeout: 10 * time.Second, HealthMaxAge: 100 * 365 * 24 * time.Hour}).Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

// ledgerGet fetches a ledger answer (200) into out, and checks its coverage member and
// header against want.
func ledgerGet(t *testing.T, base, path string, out any, want rest.CoverageJSON) {
	t.Helper()
	resp, body := send(t, http.MethodGet, base+path, "", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, resp.StatusCode, body)
	}
	var member struct {
		Coverage *rest.CoverageJSON `json:"coverage"`
	}
	if err := json.Unmarshal(body, &member); err != nil || member.Coverage == nil || *member.Coverage != want {
		t.Errorf("GET %s: coverage %+v (%v), want %+v", path, member.Coverage, err, want)
	}
	if got := resp.Header.Get(rest.CoverageHeader); got != want.Header() {
		t.Errorf("GET %s: %s %q, want %q", path, rest.CoverageHeader, got, want.Header())
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, body)
	}
}

// ingestedSim is a fresh keyspace (and its config) holding milestones [from, to] of a sim
// chain of tip milestones (10 messages each, 12 addresses) from seed.
func ingestedSim(t *testing.T, seed int64, tip, from, to uint32) (*sim.Sim, *store.Store, cql.Config) {
	t.Helper()
	testcontainers.SkipShort(t)
	st, cfg := storetest.New(t, testChunk)
	src := sim.New(sim.Options{Seed: seed, MessagesPerMilestone: 10, AddressPool: 12, Tip: tip})
	ingestRange(t, src, st, from, to)
	return src, st, cfg
}

// ingestRange indexes milestones [from, to] of src as `indexer run -start-at` does, and
// publishes the sync summary (an indexer's store does within a second).
func ingestRange(t *testing.T, src *sim.Sim, st *store.Store, from, to uint32) {
	t.Helper()
	ctx := context.Background()
	if err := ingest.New(src, st, ingest.Config{Start: from, StopAt: to}, nil, quiet).Run(ctx); err != nil {
		t.Fatalf("ingest %d-%d: %v", from, to, err)
	}
	if err := st.FlushSyncSummary(ctx); err != nil {
		t.Fatal(err)
	}
}

// unsync deletes the sync rows of [from, to] (a re-sync's first step, or a milestone
// half-written) and publishes the summary.
func unsync(t *testing.T, st *store.Store, from, to uint32) {
	t.Helper()
	ctx := context.Background()
	for i := from; i <= to; i++ {
		if err := st.Unsync(ctx, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FlushSyncSummary(ctx); err != nil {
		t.Fatal(err)
	}
}

// A keyspace synced 10-20 and 22-30 (21 written but its sync row missing) advertises
// 20 on every ledger route, partial since 10 with one gap: no answer applies 21-30.
func TestLedgerIndexStopsAtTheFirstGap(t *testing.T) {
	ctx := context.Background()
	src, st, _ := ingestedSim(t, 41, 31, 10, 30)
	unsync(t, st, 21, 21)
	truth, err := src.Truth(30)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := analytics.ComputeLedger(ctx, st, "test"); err != nil {
		t.Fatal(err)
	}
	base := coverageServer(t, st)
	want := rest.CoverageJSON{Status: rest.CoveragePartial, Since: 10, LedgerIndex: 20, Gaps: 1,
		Reason: store.NoBootstrapReason(10)}
	ms20 := truth.Milestones[slices.IndexFunc(truth.Milestones, func(m sim.MilestoneTruth) bool { return m.Index == 20 })]

	var page indexer.OutputsJSON
	ledgerGet(t, base, indexer.Tip26Prefix+"/outputs/basic?pageSize=1000", &page, want)
	wantIDs := map[string]bool{}
	for id, o := range truth.Outputs {
		if o.Output.Kind == chain.OutputBasic && o.MilestoneIndex >= 10 && o.MilestoneIndex <= 20 && !o.Spent {
			wantIDs[id.String()] = true // spends of 21-30 are written: the rows are the unspent set at 30
		}
	}
	if page.LedgerIndex != 20 || page.Cursor != "" || !sameSet(page.Items, wantIDs) {
		t.Errorf("TIP-26 basic: ledgerIndex %d, cursor %q, %d items; want 20, no cursor, the %d outputs of 10-20 unspent",
			page.LedgerIndex, page.Cursor, len(page.Items), len(wantIDs))
	}

	var info struct {
		Status tip25.StatusJSON `json:"status"`
	}
	ledgerGet(t, base, core.CorePrefix+"/info", &info, want)
	if info.Status.ConfirmedMilestone.Index != 20 || info.Status.LatestMilestone.Index != 30 ||
		info.Status.ConfirmedMilestone.MilestoneID != ms20.MilestoneID.String() || info.Status.PruningIndex != 9 {
		t.Errorf("/info status %+v: want confirmed 20 (%s), latest 30, pruning index 9", info.Status, ms20.MilestoneID)
	}
	var health core.HealthJSON
	ledgerGet(t, base, "/health", &health, want)
	if health.NewestMilestone.Index != 20 {
		t.Errorf("/health newest milestone %d, want the ledger index 20", health.NewestMilestone.Index)
	}
	checkOutputAtGap(t, base, truth, want)
	if len(page.Items) == 0 {
		t.Fatal("no basic output of 10-20 is unspent in the test chain")
	}
	checkExplorerCoverage(t, base, page.Items[0], truth, ms20.Timestamp.Unix(), want)
}

// checkOutputAtGap: an output created by 20 and spent past the gap is unspent at the
// ledger index, in TIP-25's output and metadata routes.
func checkOutputAtGap(t *testing.T, base string, truth *sim.Truth, want rest.CoverageJSON) {
	t.Helper()
	var id chain.OutputID
	for oid, o := range truth.Outputs {
		if o.MilestoneIndex >= 10 && o.MilestoneIndex <= 20 && o.Spent && o.SpentMilestone > 21 && o.SpentMilestone <= 30 {
			id = oid
			break
		}
	}
	if id == (chain.OutputID{}) {
		t.Fatal("no output of 10-20 is spent in 22-30 in the test chain")
	}
	var meta tip25.OutputMetadataJSON
	ledgerGet(t, base, core.CorePrefix+"/outputs/"+id.String()+"/metadata", &meta, want)
	if meta.LedgerIndex != 20 || meta.IsSpent {
		t.Errorf("metadata of %s: ledgerIndex %d, spent %t; want 20, unspent", id, meta.LedgerIndex, meta.IsSpent)
	}
	var out tip25.OutputResponseJSON
	ledgerGet(t, base, core.CorePrefix+"/outputs/"+id.String(), &out, want)
	if out.Metadata == nil || out.Metadata.LedgerIndex != 20 || out.Metadata.IsSpent {
		t.Errorf("output %s: metadata %+v; want ledgerIndex 20, unspent", id, out.Metadata)
	}
}

// checkExplorerCoverage: balances, histories and the ledger analytics (computed at the
// advertised index) state the same coverage.
func checkExplorerCoverage(t *testing.T, base, outputID string, truth *sim.Truth, at int64, want rest.CoverageJSON) {
	t.Helper()
	id, _ := chain.ParseOutputID(outputID)
	o := truth.Outputs[id]
	if o == nil || o.Output.Address == nil {
		t.Fatalf("output %s: not in the truth, or no address", outputID)
	}
	address := o.Output.Address.Bech32(sim.HRP)
	var balance explorer.BalanceJSON
	ledgerGet(t, base, explorer.ExplorerPrefix+"/balance/"+address, &balance, want)
	if balance.LedgerIndex != 20 || balance.MilestoneTimestamp != at {
		t.Errorf("balance: ledger index %d at %d, want 20 at %d", balance.LedgerIndex, balance.MilestoneTimestamp, at)
	}
	var history explorer.HistoryJSON
	ledgerGet(t, base, explorer.ExplorerPrefix+"/addresses/"+address+"/history", &history, want)
	ledgerGet(t, base, explorer.ExplorerPrefix+"/ledger/updates/by-address/"+address, &history, want)
	var rich explorer.RichestJSON
	ledgerGet(t, base, explorer.ExplorerPrefix+"/ledger/richest-addresses", &rich, want)
	var dist explorer.DistributionJSON
	ledgerGet(t, base, explorer.ExplorerPrefix+"/ledger/token-distribution", &dist, want)
	if rich.LedgerIndex != 20 || dist.LedgerIndex != 20 {
		t.Errorf("ledger analytics computed at %d and %d, want the ledger index 20", rich.LedgerIndex, dist.LedgerIndex)
	}
}

func sameSet(items []string, want map[string]bool) bool {
	got := map[string]bool{}
	for _, id := range items {
		got[id] = true
	}
	return len(got) == len(items) && maps.Equal(got, want)
}

// A bootstrap's outputs booked in partition 0 while every sync row is in partition 5:
// the TIP-26 queries by kind read partition 0 once the bootstrap is recorded. Milestones
// 1-9 are written with the store's builders and no sync rows (as a bootstrap writes
// rows), 50-55 indexed; the record says L = 49.
func TestBootstrapPartitionsAreQueried(t *testing.T) {
	ctx := context.Background()
	src, st, cfg := ingestedSim(t, 42, 56, 50, 55)
	for i := uint32(1); i <= 9; i++ {
		cm, err := src.Confirmed(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ctx, st.MilestoneWrites(cm, 1, nil).Writes, 16); err != nil {
			t.Fatal(err)
		}
	}
	kinds := []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}
	byKind := func(base string, ledgerIndex uint32, parts []int32, want rest.CoverageJSON) {
		t.Helper()
		for _, k := range kinds {
			var page indexer.OutputsJSON
			ledgerGet(t, base, indexer.Tip26Prefix+"/outputs/"+k.String()+"?pageSize=1000", &page, want)
			rows := unspentIDs(t, st, k, parts, ledgerIndex)
			if page.LedgerIndex != ledgerIndex || page.Cursor != "" || !sameSet(page.Items, rows) {
				t.Errorf("%s outputs: ledgerIndex %d, cursor %q, %d items; want %d, the %d unspent rows of partitions %v",
					k, page.LedgerIndex, page.Cursor, len(page.Items), ledgerIndex, len(rows), parts)
			}
		}
	}
	if n := len(unspentIDs(t, st, chain.OutputBasic, []int32{0}, 9)); n == 0 {
		t.Fatal("no basic output of milestones 1-9 is unspent: the test shows nothing")
	}
	byKind(coverageServer(t, st), 55, []int32{5}, rest.CoverageJSON{Status: rest.CoveragePartial, Since: 50, LedgerIndex: 55,
		Reason: store.NoBootstrapReason(50)})

	cm49, err := src.Confirmed(ctx, 49)
	if err != nil {
		t.Fatal(err)
	}
	boot := store.LedgerBootstrap{Index: 49, MilestoneID: cm49.MilestoneID.String(),
		MilestoneTimestamp: uint32(cm49.Timestamp.Unix()), Kind: "full", OldestBooked: 1}
	if err := st.RecordLedgerBootstrap(ctx, boot, "test"); err != nil {
		t.Fatal(err)
	}
	fresh := func() string { // a server whose store has not read the record yet
		return coverageServer(t, store.New(testcontainers.Session(t, cfg), testChunk))
	}
	byKind(fresh(), 55, []int32{0, 5}, rest.CoverageJSON{Status: rest.CoverageComplete, Since: 49, LedgerIndex: 55})

	unsync(t, st, 50, 50) // a gap right past L: the ledger is the bootstrap's
	atL := rest.CoverageJSON{Status: rest.CoverageComplete, Since: 49, LedgerIndex: 49, Gaps: 1}
	base := fresh()
	byKind(base, 49, []int32{0}, atL)
	var info struct {
		Status tip25.StatusJSON `json:"status"`
	}
	ledgerGet(t, base, core.CorePrefix+"/info", &info, atL)
	confirmed := tip25.MilestoneInfoJSON{Index: 49, Timestamp: boot.MilestoneTimestamp, MilestoneID: boot.MilestoneID}
	if info.Status.ConfirmedMilestone != confirmed || info.Status.LatestMilestone.Index != 55 {
		t.Errorf("/info status %+v: want confirmed %+v (the bootstrap record's), latest 55", info.Status, confirmed)
	}
}

// unspentIDs reads the unspent rows of kind in parts directly, booked up to ledgerIndex.
func unspentIDs(t *testing.T, st *store.Store, kind chain.OutputKind, parts []int32, ledgerIndex uint32) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, p := range parts {
		rows, next, err := st.LedgerPage(context.Background(), store.LedgerStream{Kind: kind.String()}, p, store.Span{}, store.PageRequest{Size: 5000})
		if err != nil || len(next) > 0 {
			t.Fatalf("%s rows of partition %d: %v (more: %t)", kind, p, err, len(next) > 0)
		}
		for _, r := range rows {
			if uint32(r.MilestoneIndex) <= ledgerIndex {
				out[r.OutputID] = true
			}
		}
	}
	return out
}

// coverageRoutes are the routes whose answers state their ledger coverage.
var coverageRoutes = []string{
	"/health", core.CorePrefix + "/info", core.CorePrefix + "/outputs/{outputId}", core.CorePrefix + "/outputs/{outputId}/metadata",
	indexer.Tip26Prefix + "/outputs", indexer.Tip26Prefix + "/outputs/basic", indexer.Tip26Prefix + "/outputs/alias",
	indexer.Tip26Prefix + "/outputs/alias/{aliasId}", indexer.Tip26Prefix + "/outputs/foundry", indexer.Tip26Prefix + "/outputs/foundry/{foundryId}",
	indexer.Tip26Prefix + "/outputs/nft", indexer.Tip26Prefix + "/outputs/nft/{nftId}",
	explorer.ExplorerPrefix + "/balance/{address}", explorer.ExplorerPrefix + "/balance/{address}/history",
	explorer.ExplorerPrefix + "/addresses/{address}/history",
	explorer.ExplorerPrefix + "/ledger/updates/by-address/{address}", explorer.ExplorerPrefix + "/ledger/richest-addresses",
	explorer.ExplorerPrefix + "/ledger/token-distribution", wallet.Prefix + "/outputs",
}

// The OpenAPI document gives every ledger route's 200 answer the X-Ledger-Coverage
// header, and no other route's.
func TestOpenAPIDocumentsCoverage(t *testing.T) {
	s := New(store.New(nil, testChunk), Config{Ops: true})
	paths := s.openAPI()["paths"].(rest.Object)
	for pattern, ops := range paths {
		for method, op := range ops.(rest.Object) {
			ok, _ := op.(rest.Object)["responses"].(rest.Object)["200"].(rest.Object)
			headers, _ := ok["headers"].(rest.Object)
			if want := slices.Contains(coverageRoutes, pattern); (headers[rest.CoverageHeader] != nil) != want {
				t.Errorf("%s %s: documents %s %t, want %t", method, pattern, rest.CoverageHeader, headers[rest.CoverageHeader] != nil, want)
			}
		}
	}
}

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// realSnapshot is Shimmer's ledger at 17338 as a TIP-35 full snapshot (real outputs that
// 17339-17340 spend, and made-up ones), and what an indexer holds after loading it and
// after then ingesting 17339-17340: the file's own expectations, not this writer's.
const realSnapshot = "../source/snapshot/testdata/snapshot_dev_full_17338"

// snapshotExpectation is the part of the .expected.json a test compares.
type snapshotExpectation struct {
	Outputs map[string]struct {
		BlockID                  string `json:"blockId"`
		MilestoneIndexBooked     uint32 `json:"milestoneIndexBooked"`
		MilestoneTimestampBooked uint32 `json:"milestoneTimestampBooked"`
	} `json:"outputs"`
	States map[string]struct {
		LedgerOutputCount int    `json:"ledgerOutputCount"`
		LedgerTotal       string `json:"ledgerTotal"`
		Synthetic         map[string]addressExpectation
		RealOwners        map[string]addressExpectation `json:"realOwners"`
		Chains            map[string]map[string]string
		PreRange          map[string]struct {
			IsSpent                 bool   `json:"isSpent"`
			MilestoneIndexSpent     uint32 `json:"milestoneIndexSpent"`
			MilestoneTimestampSpent uint32 `json:"milestoneTimestampSpent"`
			TransactionIDSpent      string `json:"transactionIdSpent"`
		} `json:"preRange"`
	} `json:"states"`
}

type addressExpectation struct {
	Lists          map[string][]string `json:"lists"`
	OwnedAmount    string              `json:"ownedAmount"`
	BalanceChecked bool                `json:"balanceChecked"`
}

// TestBootstrapThenIngestRealShimmer: the real snapshot at 17338 bootstrapped, then the
// real milestones 17339-17340 ingested from the fake node from where the bootstrap ends.
// At both states every address lists exactly its unspent outputs on each TIP-26 route,
// chains are found by ID, balances and output metadata are the file's, and the coverage
// is complete since 17338.
func TestBootstrapThenIngestRealShimmer(t *testing.T) {
	testcontainers.SkipShort(t)
	want := readSnapshotExpectation(t)
	st, cfg := storetest.New(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: realSnapshot + ".bin", Node: "test", Log: quiet}); err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, api: New(st, Config{RequestTimeout: 10 * time.Second})}
	e.srv = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.srv.Close)
	t.Run("17338", func(t *testing.T) { checkSnapshotState(t, e, want, ledgerAt{17338, 17338}) })

	fake, _ := nodetest.Start(t)
	src, err := node.New(node.Config{URL: fake.URL(), Created: st})
	if err != nil {
		t.Fatal(err)
	}
	start, ok, err := bootstrap.NextMilestone(ctx, st)
	if err != nil || !ok || start != 17339 {
		t.Fatalf("next milestone after the bootstrap: %d, %t, %v", start, ok, err)
	}
	ingestTo := func(t *testing.T, from, to uint32) {
		if err := ingest.New(src, st, ingest.Config{Start: from, StopAt: to}, nil, quiet).Run(ctx); err != nil {
			t.Fatalf("ingest %d-%d after the bootstrap: %v", from, to, err)
		}
	}
	ingestTo(t, start, 17339)
	ingested := false
	t.Run("live 17340: event stream, iota-sdk and iota.js MQTT", func(t *testing.T) {
		checkLiveReal(t, e, func(t *testing.T) { ingestTo(t, 17340, 17340); ingested = true })
	})
	if !ingested {
		ingestTo(t, 17340, 17340)
	}
	t.Run("17340", func(t *testing.T) { checkSnapshotState(t, e, want, ledgerAt{17340, 17340}) })
	t.Run("lists at 17338", func(t *testing.T) { checkSnapshotState(t, e, want, ledgerAt{17338, 17340}) })
	t.Run("lists at 17339", func(t *testing.T) { checkLedgerChanges(t, e) })
	t.Run("states at 17339", func(t *testing.T) { checkStatesAt17339(t, e, want) })
	t.Run("list before the bootstrap", func(t *testing.T) {
		var before indexer.OutputsJSON
		e.mustGet(t, indexer.Tip26Prefix+"/outputs?ledgerIndex=17337", &before)
		if c := before.Coverage; c.Status != "partial" || c.Reason != store.BeforeSinceReason(17337, 17338) {
			t.Errorf("the outputs at 17337, before the bootstrap's 17338: coverage %+v, want partial, saying so", c)
		}
	})
	t.Run("outputs at 17338-17340", func(t *testing.T) { checkOutputsAt(t, e, want) })
	t.Run("wallet sync at 17338-17340", func(t *testing.T) { checkWalletSyncReal(t, e, want) })
	t.Run("balances at 17338", func(t *testing.T) { checkBalancesAt(t, e, want, 17338) })
	t.Run("balances at 17340", func(t *testing.T) { checkBalancesAt(t, e, want, 17340) })
	t.Run("balance histories 17339-17340", func(t *testing.T) { checkBalanceHistories(t, e, want) })
	t.Run("exports 17339-17340", func(t *testing.T) { checkExportsReal(t, e, want) })
	t.Run("event streams from 17338", func(t *testing.T) { checkEventsReal(t, e) })
	t.Run("ledger analytics on request", func(t *testing.T) { checkLedgerOnRequest(t, e, want) })
	t.Run("balance at 17338 without the spent twin's first milestone", func(t *testing.T) {
		checkBalanceWithoutTwin(t, e, cfg, want)
	})
}

// checkBalanceWithoutTwin: once the spent twin no longer says it holds 17339's spends (as
// in a keyspace indexed before the twin), a balance at 17338, which reads the twin, says
// it is partial; the balance at the ledger index, which does not, stays complete.
func checkBalanceWithoutTwin(t *testing.T, e *env, cfg cql.Config, want *snapshotExpectation) {
	sess, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Gocql().Query("DELETE FROM spent_outputs_milestones WHERE ms_range_id = ? AND milestone_index = ?",
		store.RangeID(17339, e.st.ChunkSize), 17339).Exec(); err != nil {
		t.Fatal(err)
	}
	addr := slices.Sorted(maps.Keys(want.States["17338"].RealOwners))[0]
	var past, now explorer.BalanceJSON
	e.mustGet(t, explorer.ExplorerPrefix+"/balance/"+addr+"?ledgerIndex=17338", &past)
	e.mustGet(t, explorer.ExplorerPrefix+"/balance/"+addr, &now)
	if past.Coverage.Status != "partial" || past.Coverage.Reason != store.SpentMissingReason(17338) ||
		now.Coverage.Status != "complete" || now.Coverage.Reason != "" {
		t.Errorf("balance of %s without the twin's 17339: at 17338 %+v, now %+v; want partial, complete",
			addr, past.Coverage, now.Coverage)
	}
}

// checkBalancesAt asks, once 17339-17340 are ingested, the balance of each address the
// file checks at index n with ledgerIndex=n: the file's amount at n, complete since 17338.
func checkBalancesAt(t *testing.T, e *env, want *snapshotExpectation, n uint32) {
	state, checked := want.States[fmt.Sprint(n)], 0
	for addr, x := range maps.All(state.RealOwners) {
		checked += checkBalanceAt(t, e, addr, x, n)
	}
	for addr, x := range maps.All(state.Synthetic) {
		checked += checkBalanceAt(t, e, addr, x, n)
	}
	if checked == 0 {
		t.Fatalf("the file checks no balance at %d", n)
	}
}

func checkBalanceAt(t *testing.T, e *env, addr string, x addressExpectation, n uint32) int {
	t.Helper()
	if !x.BalanceChecked {
		return 0
	}
	var b explorer.BalanceJSON
	e.mustGet(t, fmt.Sprintf("%s/balance/%s?ledgerIndex=%d", explorer.ExplorerPrefix, addr, n), &b)
	if b.TotalBalance != x.OwnedAmount || b.LedgerIndex != n || b.Coverage.Status != "complete" || b.Coverage.Since != 17338 {
		t.Errorf("balance of %s at %d: %s at %d (%+v), want %s", addr, n, b.TotalBalance, b.LedgerIndex, b.Coverage, x.OwnedAmount)
	}
	return 1
}

// checkOutputsAt asks, once 17339-17340 are ingested, each snapshot output's metadata at
// ledger indexes 17338 to 17340: spent only by the milestones up to the one asked for
// (the file's spends), the ledger index the one asked for, the coverage complete; the
// outputs 17340 created answer 404 at 17339, and 17341 is past the ledger index.
func checkOutputsAt(t *testing.T, e *env, want *snapshotExpectation) {
	spends := want.States["17340"].PreRange
	for _, n := range []uint32{17338, 17339, 17340} {
		for id, o := range want.Outputs {
			var md tip25.OutputMetadataJSON
			e.mustGet(t, fmt.Sprintf("%s/outputs/%s/metadata?ledgerIndex=%d", core.CorePrefix, id, n), &md)
			spend, spentByThen := spends[id]
			spentByThen = spentByThen && spend.IsSpent && spend.MilestoneIndexSpent <= n
			if md.LedgerIndex != n || md.MilestoneIndexBooked != o.MilestoneIndexBooked || md.IsSpent != spentByThen ||
				spentByThen && (md.MilestoneIndexSpent != spend.MilestoneIndexSpent || md.TransactionIDSpent != spend.TransactionIDSpent) {
				t.Errorf("output %s at %d: %+v; want spent %t (%+v)", id, n, md, spentByThen, spend)
			}
		}
	}
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range set.Milestones[17340].Created {
		id := chain.OutputID(o.OutputID)
		code, body := e.fetch(t, fmt.Sprintf("%s/outputs/%s/metadata?ledgerIndex=17339", core.CorePrefix, id))
		if code != http.StatusNotFound || !strings.Contains(string(body), "after ledger index 17339") {
			t.Errorf("output %s (created by 17340) at 17339: %d %s", id, code, body)
		}
	}
	code, body := e.fetch(t, core.CorePrefix+"/outputs/"+slices.Sorted(maps.Keys(want.Outputs))[0]+"/metadata?ledgerIndex=17341")
	if code != http.StatusBadRequest || !strings.Contains(string(body), "ledgerIndex") {
		t.Errorf("an output at 17341, past the ledger index: %d %s", code, body)
	}
}

func readSnapshotExpectation(t *testing.T) *snapshotExpectation {
	t.Helper()
	data, err := os.ReadFile(realSnapshot + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var want snapshotExpectation
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return &want
}

// ledgerAt is the ledger index a check asks at (index) and the one the keyspace is at
// (ledger): below it, every read asks with ledgerIndex.
type ledgerAt struct{ index, ledger uint32 }

// query is the parameter that asks for a at the ledger index: none at the ledger's own.
func (a ledgerAt) query() string {
	if a.index == a.ledger {
		return ""
	}
	return fmt.Sprintf("&ledgerIndex=%d", a.index)
}

func checkSnapshotState(t *testing.T, e *env, want *snapshotExpectation, at ledgerAt) {
	index := at.index
	state := want.States[fmt.Sprint(index)]
	addrs := map[string]addressExpectation{}
	for a, x := range state.Synthetic {
		addrs[a] = x
	}
	for a, x := range state.RealOwners {
		addrs[a] = x
	}
	for addr, x := range addrs {
		checkAddressLists(t, e, addr, x, at)
	}
	for kind, chains := range state.Chains {
		for id, output := range chains {
			var got indexer.OutputsJSON
			e.mustGet(t, indexer.Tip26Prefix+"/outputs/"+kind+"/"+id+"?"+at.query(), &got)
			if !slices.Equal(got.Items, []string{output}) || got.LedgerIndex != index {
				t.Errorf("%s %s: %v, want %s", kind, id, got.Items, output)
			}
		}
	}
	all := pageAll(t, e, indexer.Tip26Prefix+"/outputs?pageSize=7"+at.query())
	if len(all) != state.LedgerOutputCount {
		t.Errorf("the generic route lists %d outputs at %d, the ledger holds %d", len(all), index, state.LedgerOutputCount)
	}
	if at.index == at.ledger {
		checkSnapshotMetadata(t, e, want, index) // earlier indexes: checkOutputsAt
	}
}

func checkAddressLists(t *testing.T, e *env, addr string, x addressExpectation, at ledgerAt) {
	t.Helper()
	index := at.index
	for route, items := range x.Lists {
		kind, param, _ := strings.Cut(route, "?")
		got := pageAll(t, e, fmt.Sprintf("%s/outputs/%s?%s=%s&pageSize=2%s", indexer.Tip26Prefix, kind, param, addr,
			at.query()))
		slices.Sort(got)
		if !slices.Equal(got, items) && (len(got) > 0 || len(items) > 0) {
			t.Errorf("%s %s=%s: %v, want %v", kind, param, addr, got, items)
		}
	}
	if !x.BalanceChecked {
		return
	}
	var b explorer.BalanceJSON
	e.mustGet(t, explorer.ExplorerPrefix+"/balance/"+addr+"?"+at.query(), &b)
	if b.TotalBalance != x.OwnedAmount || b.LedgerIndex != index {
		t.Errorf("balance of %s: %s at %d, want %s at %d", addr, b.TotalBalance, b.LedgerIndex, x.OwnedAmount, index)
	}
	if c := b.Coverage; c.Status != "complete" || c.Since != 17338 || c.LedgerIndex != at.ledger || c.Gaps != 0 {
		t.Errorf("balance of %s: coverage %+v, want complete since 17338 at %d", addr, c, index)
	}
}

// pageAll follows a TIP-26 route's cursor to the end and returns its items.
func pageAll(t *testing.T, e *env, path string) []string {
	t.Helper()
	var items []string
	for next := path; ; {
		var page struct {
			indexer.OutputsJSON
			rest.WithCoverage
		}
		e.mustGet(t, next, &page)
		items = append(items, page.Items...)
		if page.Coverage.Status != "complete" || page.Coverage.Since != 17338 {
			t.Errorf("GET %s: coverage %+v", next, page.Coverage)
		}
		if page.Cursor == "" {
			return items
		}
		next = path + "&cursor=" + page.Cursor
	}
}

// checkSnapshotMetadata compares each snapshot output's metadata with the file's
// booking and, for the real outputs, the spend the data records.
func checkSnapshotMetadata(t *testing.T, e *env, want *snapshotExpectation, index uint32) {
	t.Helper()
	state := want.States[fmt.Sprint(index)]
	for id, o := range want.Outputs {
		var md struct {
			BlockID                  string `json:"blockId"`
			IsSpent                  bool   `json:"isSpent"`
			MilestoneIndexSpent      uint32 `json:"milestoneIndexSpent"`
			MilestoneTimestampSpent  uint32 `json:"milestoneTimestampSpent"`
			TransactionIDSpent       string `json:"transactionIdSpent"`
			MilestoneIndexBooked     uint32 `json:"milestoneIndexBooked"`
			MilestoneTimestampBooked uint32 `json:"milestoneTimestampBooked"`
			LedgerIndex              uint32 `json:"ledgerIndex"`
		}
		e.mustGet(t, core.CorePrefix+"/outputs/"+id+"/metadata", &md)
		if md.BlockID != o.BlockID || md.MilestoneIndexBooked != o.MilestoneIndexBooked ||
			md.MilestoneTimestampBooked != o.MilestoneTimestampBooked || md.LedgerIndex != index {
			t.Errorf("output %s: booked %s at %d (%d), ledger %d; want %s at %d (%d), ledger %d", id, md.BlockID,
				md.MilestoneIndexBooked, md.MilestoneTimestampBooked, md.LedgerIndex, o.BlockID, o.MilestoneIndexBooked,
				o.MilestoneTimestampBooked, index)
		}
		spend, real := state.PreRange[id]
		if !real {
			spend.IsSpent = false
		}
		if md.IsSpent != spend.IsSpent || md.MilestoneIndexSpent != spend.MilestoneIndexSpent ||
			md.MilestoneTimestampSpent != spend.MilestoneTimestampSpent || md.TransactionIDSpent != spend.TransactionIDSpent {
			t.Errorf("output %s at %d: spent %t at %d (%d) by %s, want %+v", id, index, md.IsSpent, md.MilestoneIndexSpent,
				md.MilestoneTimestampSpent, md.TransactionIDSpent, spend)
		}
	}
}

// checkLedgerChanges: the generic list at 17339 is the list at 17338 with 17339's ledger
// changes applied, and the list at 17340 that at 17339 with 17340's, the changes as
// inx-chronicle recorded them (not as this indexer wrote them); the list at 17338 is
// the snapshot's ledger (checkSnapshotState).
func checkLedgerChanges(t *testing.T, e *env) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	ledger := map[string]bool{}
	for _, id := range pageAll(t, e, indexer.Tip26Prefix+"/outputs?pageSize=50&ledgerIndex=17338") {
		ledger[id] = true
	}
	for _, n := range []uint32{17339, 17340} {
		ms := set.Milestones[n]
		for _, o := range ms.Consumed {
			delete(ledger, chain.OutputID(o.OutputID).String())
		}
		for _, o := range ms.Created {
			ledger[chain.OutputID(o.OutputID).String()] = true
		}
		got := pageAll(t, e, indexer.Tip26Prefix+"/outputs?pageSize=50"+ledgerAt{n, 17340}.query())
		if want := slices.Sorted(maps.Keys(ledger)); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
			t.Errorf("the outputs at %d: %d, want %d (the list at %d with the milestone's %d created, %d consumed)",
				n, len(got), len(want), n-1, len(ms.Created), len(ms.Consumed))
		}
	}
}

// checkBalanceHistories: the balance history of each address the file checks at both
// 17338 and 17340, from 17339 on, starts at the file's balance at 17338 and ends at its
// balance at 17340, by milestone and by day.
func checkBalanceHistories(t *testing.T, e *env, want *snapshotExpectation) {
	checked := 0
	for addr, before := range want.States["17338"].RealOwners {
		after, ok := want.States["17340"].RealOwners[addr]
		if !ok || !before.BalanceChecked || !after.BalanceChecked {
			continue
		}
		for _, granularity := range []string{"milestone", "day"} {
			var h explorer.BalanceHistoryJSON
			e.mustGet(t, fmt.Sprintf("%s/balance/%s/history?from=17339&granularity=%s", explorer.ExplorerPrefix, addr,
				granularity), &h)
			end := h.Start
			if len(h.Items) > 0 {
				end = h.Items[len(h.Items)-1].Balance
			}
			if h.Start != before.OwnedAmount || end != after.OwnedAmount || h.Coverage.Status != "complete" {
				t.Errorf("balance history of %s by %s: %s to %s (%+v), want %s to %s, complete", addr, granularity,
					h.Start, end, h.Coverage, before.OwnedAmount, after.OwnedAmount)
			}
		}
		if before.OwnedAmount != after.OwnedAmount {
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no checked address's balance changed in 17339-17340: the test checks nothing")
	}
}

// checkLedgerOnRequest: the token distribution and the richest addresses asked at 17338
// and 17340, which no worker computed, are computed on request: the distribution holds
// the file's ledger total, and the richest list ranks the file's checked balances of
// that state as they are.
func checkLedgerOnRequest(t *testing.T, e *env, want *snapshotExpectation) {
	for _, n := range []uint32{17338, 17340} {
		state := want.States[fmt.Sprint(n)]
		var dist explorer.DistributionJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/token-distribution?ledgerIndex=%d", explorer.ExplorerPrefix, n), &dist)
		var total uint64
		for _, d := range dist.Distribution {
			v, _ := strconv.ParseUint(d.TotalBalance, 10, 64)
			total += v
		}
		if !dist.OnRequest || fmt.Sprint(total) != state.LedgerTotal || dist.Coverage.Status != "complete" {
			t.Errorf("distribution at %d: total %d, on request %t, %+v; want the file's %s, complete", n, total,
				dist.OnRequest, dist.Coverage, state.LedgerTotal)
		}
		var rich explorer.RichestJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=1000&ledgerIndex=%d", explorer.ExplorerPrefix, n), &rich)
		held := map[string]string{}
		for _, r := range rich.Top {
			held[r.Address] = r.Balance
		}
		for addr, x := range state.RealOwners {
			if x.BalanceChecked && x.OwnedAmount != "0" && held[addr] != x.OwnedAmount {
				t.Errorf("richest at %d: %s holds %q, want the file's %s", n, addr, held[addr], x.OwnedAmount)
			}
		}
	}
}

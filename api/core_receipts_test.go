package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotajs"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// receiptChainLength is how many milestones TestCoreReceiptsSim indexes.
const receiptChainLength = 10

// receiptOptions makes three milestones carry receipts, two of them migrating at the same
// legacy index, one of them after a milestone without.
func receiptOptions() sim.Options {
	opts := testOptions
	opts.Receipts = map[uint32]uint32{3: 900, 4: 900, 7: 901}
	return opts
}

// TestCoreReceiptsSim: made-up milestones carrying receipts, ingested, answer /receipts,
// /receipts/{migratedAt} and /treasury as the chain made them; writing the milestones
// again changes no answer.
func TestCoreReceiptsSim(t *testing.T) {
	testcontainers.SkipShort(t)
	opts := receiptOptions()
	e := newEnv(t, opts, receiptChainLength)
	want := simReceipts(t, opts)
	if len(want) != len(opts.Receipts) {
		t.Fatalf("the sim made %d receipts, the options ask for %d", len(want), len(opts.Receipts))
	}
	check := func(t *testing.T) {
		testReceiptLists(t, e, want)
		testTreasuryOfReceipts(t, e, want)
	}
	t.Run("first write", check)
	rewriteMilestones(t, e, opts)
	t.Run("written again", check)
}

// simReceipt is a receipt as the simulator made it, with its milestone.
type simReceipt struct {
	index uint32
	id    chain.MilestoneID
	rc    *chain.Receipt
}

// simReceipts are the receipts of the sim chain's milestones, by milestone index.
func simReceipts(t *testing.T, opts sim.Options) []simReceipt {
	src := sim.New(opts)
	var out []simReceipt
	for i := uint32(1); i <= receiptChainLength; i++ {
		cm, err := src.Confirmed(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if cm.Milestone.Receipt != nil {
			out = append(out, simReceipt{index: i, id: cm.MilestoneID, rc: cm.Milestone.Receipt})
		}
	}
	return out
}

// rewriteMilestones writes every milestone's rows again, as a re-ingest does.
func rewriteMilestones(t *testing.T, e *env, opts sim.Options) {
	src := sim.New(opts)
	ctx := context.Background()
	for i := uint32(1); i <= receiptChainLength; i++ {
		cm, err := src.Confirmed(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.st.Apply(ctx, e.st.MilestoneWrites(cm, 1, nil).Writes, 4); err != nil {
			t.Fatal(err)
		}
	}
}

// testReceiptLists: /receipts lists every receipt by migratedAt then milestone index;
// /receipts/{migratedAt} those of that legacy index; an index without any, an empty list.
func testReceiptLists(t *testing.T, e *env, want []simReceipt) {
	base := e.srv.URL + core.CorePrefix
	var all core.ReceiptsJSON
	coreJSON(t, base, "/receipts", &all)
	wantAll := receiptTuples(t, want, func(simReceipt) bool { return true })
	if got, exp := mustJSON(t, all.Receipts), mustJSON(t, wantAll); got != exp {
		t.Errorf("/receipts:\n got %s\nwant %s", got, exp)
	}
	for _, at := range []uint32{900, 901, 902} {
		var some core.ReceiptsJSON
		coreJSON(t, base, fmt.Sprintf("/receipts/%d", at), &some)
		exp := receiptTuples(t, want, func(r simReceipt) bool { return r.rc.MigratedAt == at })
		if got, exp := mustJSON(t, some.Receipts), mustJSON(t, exp); got != exp {
			t.Errorf("/receipts/%d:\n got %s\nwant %s", at, got, exp)
		}
	}
	coreGet(t, base, "/receipts/abc").wantError(t, 400, "migratedAt")
}

// receiptTuples are the TIP-25 tuples of the receipts keep picks, by migratedAt then
// milestone index.
func receiptTuples(t *testing.T, rs []simReceipt, keep func(simReceipt) bool) []core.ReceiptTupleJSON {
	out := []core.ReceiptTupleJSON{}
	for _, r := range rs {
		if !keep(r) {
			continue
		}
		j, err := tip25.Receipt(r.rc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, core.ReceiptTupleJSON{Receipt: j, MilestoneIndex: r.index})
	}
	slices.SortStableFunc(out, func(a, b core.ReceiptTupleJSON) int {
		return int(a.Receipt.MigratedAt) - int(b.Receipt.MigratedAt)
	})
	return out
}

// testTreasuryOfReceipts: each receipt spends the treasury the previous one left (the
// first the genesis treasury), and /treasury is the newest receipt's output: the genesis
// treasury less every migrated deposit.
func testTreasuryOfReceipts(t *testing.T, e *env, want []simReceipt) {
	prev, amount := chain.MilestoneID{}, uint64(sim.GenesisTreasury)
	for _, r := range want {
		if r.rc.Transaction.InputMilestoneID != prev {
			t.Errorf("milestone %d's receipt spends the treasury of %s, want %s", r.index, r.rc.Transaction.InputMilestoneID, prev)
		}
		for _, f := range r.rc.Funds {
			amount -= f.Deposit
		}
		prev = r.id
	}
	var got core.TreasuryJSON
	coreJSON(t, e.srv.URL+core.CorePrefix, "/treasury", &got)
	if exp := (core.TreasuryJSON{MilestoneID: prev.String(), Amount: fmt.Sprint(amount)}); got != exp {
		t.Errorf("/treasury = %+v, want %+v", got, exp)
	}
}

// TestCoreTreasuryNone: a keyspace without bootstrap and receipts answers /treasury 404
// saying why, and /receipts an empty list.
func TestCoreTreasuryNone(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, testOptions, 3)
	base := e.srv.URL + core.CorePrefix
	coreGet(t, base, "/treasury").wantError(t, 404, "no treasury output", "receipt")
	var all core.ReceiptsJSON
	if a := coreJSON(t, base, "/receipts", &all); all.Receipts == nil || len(all.Receipts) != 0 {
		t.Errorf("/receipts = %s, want an empty list", a.body)
	}
}

// TestCoreTreasuryRealBootstrap: a keyspace bootstrapped from the real Shimmer snapshot
// answers /treasury with the treasury output of the file's header.
func TestCoreTreasuryRealBootstrap(t *testing.T) {
	testcontainers.SkipShort(t)
	f, err := os.Open(realSnapshot + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := snapshot.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Full()
	st, _ := storetest.New(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: realSnapshot + ".bin", Node: "test", Log: quiet}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(st, Config{RequestTimeout: 10 * time.Second}).Handler())
	t.Cleanup(srv.Close)
	var got core.TreasuryJSON
	coreJSON(t, srv.URL+core.CorePrefix, "/treasury", &got)
	if exp := (core.TreasuryJSON{MilestoneID: h.TreasuryMilestoneID.String(), Amount: fmt.Sprint(h.TreasuryAmount)}); got != exp {
		t.Errorf("/treasury = %+v, want the header's %+v", got, exp)
	}
}

// TestIotaJSReceipts: iota.js's SingleNodeClient reads the receipts and the treasury of
// the receipt chain; each receipt it parsed serializes to the bytes the milestone carried.
func TestIotaJSReceipts(t *testing.T) {
	iotajs.Require(t)
	opts := receiptOptions()
	e := newEnv(t, opts, receiptChainLength)
	want := simReceipts(t, opts)
	tuples := func(keep func(simReceipt) bool) []map[string]any {
		out := []map[string]any{}
		for _, r := range want {
			if keep(r) {
				out = append(out, map[string]any{"milestoneIndex": r.index, "hex": hex0x(append([]byte{chain.OptionReceipt}, r.rc.Encode()...))})
			}
		}
		slices.SortStableFunc(out, func(a, b map[string]any) int {
			return int(migratedAtOf(want, a)) - int(migratedAtOf(want, b))
		})
		return out
	}
	byAt := map[string]any{}
	for _, at := range []uint32{900, 901, 902} {
		byAt[fmt.Sprint(at)] = tuples(func(r simReceipt) bool { return r.rc.MigratedAt == at })
	}
	last := want[len(want)-1]
	treasury := map[string]any{"milestoneId": last.id.String(), "amount": fmt.Sprint(last.rc.Transaction.OutputAmount)}
	runIotaJSClient(t, e.srv.URL, map[string]any{"receipts": map[string]any{
		"all": tuples(func(simReceipt) bool { return true }), "byMigratedAt": byAt, "treasury": treasury}}, "")
}

// migratedAtOf is the migratedAt of the receipt of the tuple's milestone.
func migratedAtOf(rs []simReceipt, tuple map[string]any) uint32 {
	for _, r := range rs {
		if r.index == tuple["milestoneIndex"] {
			return r.rc.MigratedAt
		}
	}
	return 0
}

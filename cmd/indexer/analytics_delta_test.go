package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// realDelta continues realSnapshot to 17340 as Hornet keeps the pair (delta_snapshot.bin).
const realDelta = "../../source/snapshot/testdata/snapshot_dev_delta_17340"

// TestRunAfterFullAndDeltaBootstrap: the real full snapshot at 17338 bootstrapped with
// the real delta to 17340, then `indexer run -source node -stop-at 17340` (nothing left
// to ingest) folds at its end from the recount at 17340, where the NFT and alias outputs
// the delta's milestones created are found by output ID; `indexer verify` is clean,
// `indexer analytics -ledger` finds recount = fold, and the recount holds the outputs
// and amount the delta's .expected.json gives for 17340.
func TestRunAfterFullAndDeltaBootstrap(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, cfg := storetest.NewOrSkip(t, 0)
	quiet := slog.New(slog.DiscardHandler)
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: realSnapshot + ".bin", Delta: realDelta + ".bin", Node: "test",
		Log: quiet}); err != nil {
		t.Fatal(err)
	}
	runVerifyRecount(t, ctx, st, cfg, 17340)
	c := checkRecountEqualsFold(t, ctx, st, 17340)
	checkStateTotals(t, c, readFacts(t, realDelta+".expected.json"), 17340)
}

// runVerifyRecount runs `indexer run -source node` against the fake node of 17339-17340
// to stopAt, then `indexer verify` and `indexer analytics -ledger`, each of which must
// succeed, and checks the fold reached stopAt from a complete base.
func runVerifyRecount(t *testing.T, ctx context.Context, st *store.Store, cfg cql.Config, stopAt uint32) {
	t.Helper()
	fake, _ := nodetest.Start(t)
	run := slices.Concat([]string{"-source", "node", "-node-url", fake.URL(), "-stop-at", strconv.FormatUint(uint64(stopAt), 10), "-follow=false",
		"-ops-addr", ""}, dbArgs(cfg))
	must(t, cmdRun(ctx, run))
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok || state.Watermark != stopAt || !state.Complete {
		t.Fatalf("fold state after the run: %+v, %t, %v; want watermark %d, complete", state, ok, err, stopAt)
	}
	must(t, cmdVerify(ctx, dbArgs(cfg)))
	must(t, cmdAnalytics(ctx, append([]string{"-ledger"}, dbArgs(cfg)...)))
}

// TestExportedDeltaBootstrapsRunsAndRecounts: the real full snapshot at 17338 with
// 17339-17340 ingested from the node, then `indexer export -snapshot full -delta delta
// -at N` writes a delta from the full file's target to N. Each delta, 17340 and 17339,
// with the real full file bootstraps a new keyspace; `indexer run` to 17340 (ingesting
// 17340 after the delta to 17339), `indexer verify` and `indexer analytics -ledger`
// succeed, and the folded figures and balances at 17340 equal the first keyspace's,
// where the fold went from 17338 through the ingested milestones.
func TestExportedDeltaBootstrapsRunsAndRecounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	src, srcCfg := bootstrappedAt17338(t, ctx)
	runVerifyRecount(t, ctx, src, srcCfg, 17340)
	want := checkRecountEqualsFold(t, ctx, src, 17340)
	dir := t.TempDir()
	for _, at := range []uint32{17340, 17339} {
		delta := filepath.Join(dir, "delta_"+strconv.Itoa(int(at))+".bin")
		must(t, cmdExport(ctx, append([]string{"-snapshot", realSnapshot + ".bin", "-delta", delta, "-at",
			strconv.Itoa(int(at))}, dbArgs(srcCfg)...)))
		st, cfg := storetest.NewOrSkip(t, 0)
		must(t, cmdBootstrap(ctx, append([]string{"-snapshot", realSnapshot + ".bin", "-delta", delta, "-ops-addr", ""},
			dbArgs(cfg)...)))
		runVerifyRecount(t, ctx, st, cfg, 17340)
		got := checkRecountEqualsFold(t, ctx, st, 17340)
		if !maps.Equal(got.Figures, want.Figures) || !maps.Equal(got.Balances, want.Balances) {
			t.Errorf("delta to %d: the ledger families at 17340 differ from the keyspace that ingested 17339-17340", at)
		}
		if _, err := os.Stat(delta + ".partial"); !os.IsNotExist(err) {
			t.Errorf("a partial file is left: %v", err)
		}
	}
}

// TestExportDeltaFlags: -delta without the full file it continues, or naming a delta file
// as that full file, is refused with the reason.
func TestExportDeltaFlags(t *testing.T) {
	ctx := context.Background()
	err := cmdExport(ctx, []string{"-delta", "d.bin", "-cql-hosts", "127.0.0.1:1"})
	if err == nil || !strings.Contains(err.Error(), "-snapshot FULL.bin") {
		t.Errorf("-delta alone: %v, want the full file asked for", err)
	}
	if _, err := readFullHeader(realDelta + ".bin"); err == nil || !strings.Contains(err.Error(), "not a full snapshot") {
		t.Errorf("a delta named as the full file: %v", err)
	}
}

// hornetPair is Hornet's own full + delta test pair (ledger 3, target 1; the delta's
// diffs 2-5, milestone 5 with a receipt).
const hornetPair = "../../source/snapshot/testdata/hornet/snapshot_"

// TestHornetPairBootstrapsAndRecounts: Hornet's own full + delta test pair, with what
// Hornet's test tool leaves blank filled in (see resignPair: previous milestone IDs, and
// signatures of test keys given as the milestone keys), bootstraps to its ledger at 5 (the receipt's treasury
// included); `indexer analytics -ledger` folds the families from the recount at 5 and
// finds the recount equal to the fold, and `indexer verify` succeeds. (No node serves
// Hornet's test network, so no `indexer run` follows.)
func TestHornetPairBootstrapsAndRecounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	keys := []ed25519.PrivateKey{testKey("hornet-a"), testKey("hornet-b")}
	full, delta := resignPair(t, t.TempDir(), keys)
	mk := chain.MilestoneKeys{Threshold: 2, Ranges: []chain.KeyRange{chain.Signer(keys[0]), chain.Signer(keys[1])}}
	st, cfg := storetest.NewOrSkip(t, 0)
	quiet := slog.New(slog.DiscardHandler)
	rec, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: full, Delta: delta, Keys: &mk, Node: "test", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Index != 5 {
		t.Fatalf("bootstrapped at %d, want 5", rec.Index)
	}
	must(t, cmdAnalytics(ctx, append([]string{"-ledger"}, dbArgs(cfg)...)))
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok || state.Watermark != 5 || !state.Complete {
		t.Fatalf("fold state: %+v, %t, %v; want watermark 5, complete", state, ok, err)
	}
	must(t, cmdVerify(ctx, dbArgs(cfg)))
	c := checkRecountEqualsFold(t, ctx, st, 5)
	if c.Outputs != 1 {
		t.Errorf("recount of %d outputs at 5, want Hornet's one output of milestone 5", c.Outputs)
	}
}

func testKey(seed string) ed25519.PrivateKey {
	s := blake2b.Sum256([]byte(seed))
	return ed25519.NewKeyFromSeed(s[:])
}

// resignPair copies Hornet's full and delta files to dir with what Hornet's test tool
// leaves blank filled in, every other byte Hornet's: each milestone names the one before
// it as its previous milestone (milestone 2 the full file's target), and its
// signatures (the payload's last bytes: type, public key, signature per signer) are
// replaced by signatures of keys over its new ID, sorted by public key. A milestone
// both files hold is changed alike in both; the layout is unchanged.
func resignPair(t *testing.T, dir string, keys []ed25519.PrivateKey) (full, delta string) {
	t.Helper()
	files := map[string][]byte{}
	var diffs []*snapshot.Diff
	var target chain.MilestoneID
	for _, name := range []string{"full_snapshot.bin", "delta_snapshot.bin"} {
		data, err := os.ReadFile(hornetPair + name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
		c := snapshottest.MustReadAll(t, data)
		if c.Full != nil {
			target = c.Full.TargetMilestoneID
		}
		diffs = append(diffs, c.Diffs...)
	}
	slices.SortFunc(diffs, func(a, b *snapshot.Diff) int { return cmp.Compare(a.Index(), b.Index()) })
	diffs = slices.CompactFunc(diffs, func(a, b *snapshot.Diff) bool { return a.Index() == b.Index() })
	prev := target
	for _, d := range diffs {
		raw := resigned(t, d, prev, keys)
		mp, err := chain.DecodeMilestonePayload(raw)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range files {
			if at := bytes.Index(data, d.RawMilestone); at >= 0 {
				copy(data[at:], raw)
				files[name] = data
			}
		}
		prev = mp.ID()
	}
	full, delta = filepath.Join(dir, "full_snapshot.bin"), filepath.Join(dir, "delta_snapshot.bin")
	must(t, os.WriteFile(full, files["full_snapshot.bin"], 0o600))
	must(t, os.WriteFile(delta, files["delta_snapshot.bin"], 0o600))
	return full, delta
}

// resigned is d's milestone payload naming prev as its previous milestone and signed by
// keys (as many as it has signatures).
func resigned(t *testing.T, d *snapshot.Diff, prev chain.MilestoneID, keys []ed25519.PrivateKey) []byte {
	t.Helper()
	const prevAt, block = 4 + 4 + 4 + 1, 1 + 32 + 64 // after type, index, timestamp, protocol version
	raw := slices.Clone(d.RawMilestone)
	if [32]byte(raw[prevAt:prevAt+32]) != [32]byte(d.Milestone.PreviousMilestoneID) || len(d.Milestone.Signatures) != len(keys) {
		t.Fatalf("milestone %d: not the layout expected", d.Index())
	}
	copy(raw[prevAt:], prev[:])
	mp, err := chain.DecodeMilestonePayload(raw)
	if err != nil {
		t.Fatal(err)
	}
	id := mp.ID()
	signers := slices.Clone(keys)
	slices.SortFunc(signers, func(a, b ed25519.PrivateKey) int {
		return bytes.Compare(a.Public().(ed25519.PublicKey), b.Public().(ed25519.PublicKey))
	})
	sigs := raw[len(raw)-len(signers)*block:]
	for i, k := range signers {
		b := sigs[i*block:]
		copy(b[1:33], k.Public().(ed25519.PublicKey))
		copy(b[33:97], ed25519.Sign(k, id[:]))
	}
	return raw
}

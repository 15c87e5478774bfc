package bootstrap

import (
	"context"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

var quiet = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

// testChain is a made-up network of 400 genesis outputs and 30 milestones, the 25th with
// a receipt.
func testChain() *snapshottest.Chain {
	return snapshottest.New(snapshottest.Options{Seed: 7, Outputs: 400, Milestones: 30, Receipt: 25, Addresses: 40})
}

// files writes a full snapshot (target, ledger index, extra diffs below) and, when
// deltaTo > 0, a delta from the target to deltaTo, into a temp dir.
func files(t *testing.T, c *snapshottest.Chain, target, ledger uint32, below int, deltaTo uint32) (full, delta string) {
	t.Helper()
	dir := t.TempDir()
	full = filepath.Join(dir, "full_snapshot.bin")
	if err := c.WriteFull(full, target, ledger, below); err != nil {
		t.Fatal(err)
	}
	if deltaTo > 0 {
		delta = filepath.Join(dir, "delta_snapshot.bin")
		if err := c.WriteDelta(delta, target, deltaTo); err != nil {
			t.Fatal(err)
		}
	}
	return full, delta
}

// keysOf is the chain's milestone keys as -milestone-keys gives them.
func keysOf(t *testing.T, c *snapshottest.Chain) *chain.MilestoneKeys {
	t.Helper()
	keys, err := chain.ParseMilestoneKeys([]byte(c.KeysJSON()))
	if err != nil {
		t.Fatal(err)
	}
	return &keys
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	st, _ := storetest.NewOrSkip(t, 10)
	return st
}

func bootstrapFiles(t *testing.T, st *store.Store, cfg Config) (store.LedgerBootstrap, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg.Log, cfg.Node = quiet, "test"
	return Run(ctx, st, cfg)
}

// unspentRow is what a test compares of an unspent_outputs row.
type unspentRow struct {
	Kind      string
	Milestone int
	CreatedAt int64
	Amount    int64
	Owner     string
}

// unspentRows reads the keyspace's whole unspent set, by output ID.
func unspentRows(t *testing.T, st *store.Store) map[string]unspentRow {
	t.Helper()
	out := map[string]unspentRow{}
	for _, r := range storetest.Rows(t, st, "SELECT output_kind, output_id, milestone_index, created_at, amount, owner, "+
		"state_controller FROM unspent_outputs") {
		owner, _ := r["owner"].(string)
		if owner == "" {
			owner, _ = r["state_controller"].(string)
		}
		out[r["output_id"].(string)] = unspentRow{Kind: r["output_kind"].(string), Milestone: r["milestone_index"].(int),
			CreatedAt: r["created_at"].(int64), Amount: r["amount"].(int64), Owner: owner}
	}
	return out
}

// wantUnspent is the chain's ledger after milestone index as unspentRows reads it.
func wantUnspent(c *snapshottest.Chain, index uint32) map[string]unspentRow {
	out := map[string]unspentRow{}
	for id, lo := range c.Ledger(index) {
		o := lo.Output
		owner := o.Address
		if o.Kind == chain.OutputAlias {
			owner = o.StateController
		}
		out[id.String()] = unspentRow{Kind: o.Kind.String(), Milestone: int(lo.MilestoneIndex), CreatedAt: lo.Timestamp.Unix(),
			Amount: int64(o.Amount), Owner: owner.Bech32(snapshottest.HRP)}
	}
	return out
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

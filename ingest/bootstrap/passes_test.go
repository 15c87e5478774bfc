package bootstrap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// TestFileReplacedByRenameBetweenPasses: a node replaces the full file by rename (another
// snapshot, target 12) after the first pass. Every pass reads the descriptor opened
// first, so the keyspace holds exactly the first file's ledger at 10, and the bootstrap
// logs that the path names another file now.
func TestFileReplacedByRenameBetweenPasses(t *testing.T) {
	st := newStore(t)
	c := testChain()
	full, _ := files(t, c, 10, 15, 3, 0)
	newer := filepath.Join(filepath.Dir(full), "full_snapshot.bin.tmp")
	if err := c.WriteFull(newer, 12, 20, 0); err != nil {
		t.Fatal(err)
	}
	var log logbuf.Buffer
	cfg := Config{Full: full, Keys: keysOf(t, c), Node: "test",
		Log: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		afterPass: func(pass int) {
			if pass == 1 {
				if err := os.Rename(newer, full); err != nil {
					t.Error(err)
				}
			}
		}}
	rec, err := runWith(t, st, cfg)
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	if rec.Index != 10 || rec.Outputs != uint64(len(c.Ledger(10))) {
		t.Errorf("record at %d with %d outputs, want the first file's: 10, %d", rec.Index, rec.Outputs, len(c.Ledger(10)))
	}
	assertLedger(t, st, c, 10)
	if !strings.Contains(log.String(), "names another file") {
		t.Errorf("no warning that the path was replaced; log:\n%s", log.String())
	}
}

// TestFileChangedInPlaceBetweenPasses: the full file rewritten in place (same header,
// same size, one output's booked timestamp changed) between passes is refused with
// ErrFileChanged: after the first pass before anything is written, after the second (the
// write pass read the changed outputs) before the bootstrap record is written.
func TestFileChangedInPlaceBetweenPasses(t *testing.T) {
	c := testChain()
	full, _ := files(t, c, 10, 15, 3, 0)
	original, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed.bin")
	named := namedByDiffs(c, 7, 15)
	err = c.WriteFullEdited(changed, 10, 15, 3, snapshottest.Edit{Outputs: func(o []*snapshot.Output) []*snapshot.Output {
		for _, out := range o {
			if !named[out.OutputID] {
				out.BookedTimestamp++
				break
			}
		}
		return o
	}})
	if err != nil {
		t.Fatal(err)
	}
	changedBytes, err := os.ReadFile(changed)
	if err != nil || len(changedBytes) != len(original) || bytes.Equal(changedBytes, original) {
		t.Fatalf("the changed file: %d bytes (%v), want %d and other bytes", len(changedBytes), err, len(original))
	}
	for _, after := range []int{1, 2} {
		t.Run(fmt.Sprintf("after pass %d", after), func(t *testing.T) {
			st := newStore(t)
			if err := os.WriteFile(full, original, 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Full: full, Keys: keysOf(t, c), Node: "test", Log: quiet, afterPass: func(pass int) {
				if pass == after {
					if err := os.WriteFile(full, changedBytes, 0o644); err != nil { // truncates and writes the same inode
						t.Error(err)
					}
				}
			}}
			_, err := runWith(t, st, cfg)
			if !errors.Is(err, ErrFileChanged) {
				t.Fatalf("bootstrap: %v, want ErrFileChanged", err)
			}
			t.Logf("refused: %v", err)
			if after == 1 {
				assertNothingWritten(t, st, false)
			}
			if _, ok, err := st.LedgerBootstrap(context.Background()); ok || err != nil {
				t.Errorf("a bootstrap record after the refusal (%v)", err)
			}
		})
	}
}

// TestForgedDiffRefusedWhereItLies: the full file's third diff (milestone 13) carries a
// forged signature and the diff after it an output that does not decode. The forged one
// is refused with chain.ErrMilestoneSignature before the next diff is read.
func TestForgedDiffRefusedWhereItLies(t *testing.T) {
	st := newStore(t)
	c := testChain()
	full := writeFull(t, c, t.TempDir(), snapshottest.Edit{Diffs: func(d []*snapshot.Diff) []*snapshot.Diff {
		// d[0] is milestone 15, the ledger index: d[2] is 13, d[3] is 12.
		mp := *d[2].Milestone
		mp.Signatures = append([]chain.MilestoneSignature(nil), mp.Signatures...)
		mp.Signatures[0].Signature[0] ^= 0xff
		d[2].Milestone, d[2].RawMilestone = &mp, nil
		if len(d[3].Created) == 0 {
			t.Fatal("milestone 12 created no output to break")
		}
		d[3].Created[0].Raw = append(d[3].Created[0].Raw, 0)
		return d
	}})
	_, err := bootstrapFiles(t, st, Config{Full: full, Keys: keysOf(t, c)})
	if !errors.Is(err, chain.ErrMilestoneSignature) || !strings.Contains(err.Error(), "milestone diff 13") {
		t.Fatalf("bootstrap: %v, want chain.ErrMilestoneSignature at milestone diff 13", err)
	}
	t.Logf("refused: %v", err)
	assertNothingWritten(t, st, false)
}

// namedByDiffs is every output the chain's milestones from..to create or consume.
func namedByDiffs(c *snapshottest.Chain, from, to uint32) map[chain.OutputID]bool {
	named := map[chain.OutputID]bool{}
	for i := from; i <= to; i++ {
		cm := c.Milestone(i)
		for _, lo := range cm.Created {
			named[lo.OutputID] = true
		}
		for _, ls := range cm.Consumed {
			named[ls.OutputID] = true
		}
	}
	return named
}

// runWith is Run with the test's own log and hooks.
func runWith(t *testing.T, st *store.Store, cfg Config) (store.LedgerBootstrap, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return Run(ctx, st, cfg)
}

// TestDiffLimitsFromConfig: Config.Limits reaches the readers (as -max-diff-bytes does): a
// full file whose diffs pass a one-diff limit of 200 bytes is refused with
// snapshot.ErrDiffTooLarge before anything is written.
func TestDiffLimitsFromConfig(t *testing.T) {
	st := newStore(t)
	c := testChain()
	full, _ := files(t, c, 10, 15, 3, 0)
	_, err := bootstrapFiles(t, st, Config{Full: full, Keys: keysOf(t, c), Limits: snapshot.Limits{DiffLength: 200}})
	if !errors.Is(err, snapshot.ErrDiffTooLarge) {
		t.Fatalf("bootstrap: %v, want snapshot.ErrDiffTooLarge", err)
	}
	t.Logf("refused: %v", err)
	assertNothingWritten(t, st, false)
}

package bootstrap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// TestKillNineMidBootstrapResumes runs `indexer bootstrap`, kills it with SIGKILL twice
// once its checkpoint moved, runs it to the end, and compares every table and view with
// a bootstrap of the same files that ran through once; a second run over the finished
// keyspace changes nothing either.
func TestKillNineMidBootstrapResumes(t *testing.T) {
	bin := bintest.Indexer(t)
	c := snapshottest.New(snapshottest.Options{Seed: 11, Outputs: 20000, Milestones: 30, Receipt: 25, Addresses: 500})
	full, delta := files(t, c, 10, 15, 3, 30)
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte(c.KeysJSON()), 0o644); err != nil {
		t.Fatal(err)
	}
	killed, killedCfg := storetest.New(t, 10)
	clean, cleanCfg := storetest.New(t, 10)
	if _, err := bootstrapFiles(t, clean, Config{Full: full, Delta: delta, Keys: keysOf(t, c)}); err != nil {
		t.Fatal(err)
	}
	args := []string{"bootstrap", "-snapshot", full, "-delta", delta, "-milestone-keys", keys, "-ops-addr", "",
		"-keyspace", killedCfg.Keyspace, "-cql-hosts", strings.Join(killedCfg.Hosts, ",")}
	var last uint64
	for kill := 1; kill <= 2; kill++ {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := waitForCheckpoint(t, killed, last)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		t.Logf("kill %d at checkpoint %d", kill, done)
		last = done
	}
	if _, ok, _ := killed.LedgerBootstrap(context.Background()); ok {
		t.Fatal("the killed runs finished the bootstrap: kill earlier")
	}
	for run := 1; run <= 2; run++ {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("run %d after the kills: %v\n%s", run, err, out)
		}
		assertSameData(t, killedCfg, cleanCfg)
	}
}

// waitForCheckpoint waits until the bootstrap's checkpoint passed after, and returns it.
func waitForCheckpoint(t *testing.T, st *store.Store, after uint64) uint64 {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		for _, r := range storetest.Rows(t, st, "SELECT concern, watermark FROM indexer_meta") {
			if strings.HasPrefix(r["concern"].(string), "ledger_bootstrap_progress/") {
				if w := uint64(r["watermark"].(int64)); w > after {
					return w
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the checkpoint did not pass %d", after)
	return 0
}

// assertSameData compares every table and view but the bookkeeping ones (who wrote a
// meta row and when, and the checkpoint rows a killed run leaves).
func assertSameData(t *testing.T, a, b cql.Config) {
	t.Helper()
	testcontainers.AssertSameData(t, a, b, "indexer_meta", "leases", "gocqlx_migrate")
}

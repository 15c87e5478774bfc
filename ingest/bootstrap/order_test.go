package bootstrap

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

const realSnapshot = "../../source/snapshot/testdata/snapshot_dev_full_17338.bin"

// TestBootstrapAndIndexInEitherOrder: the real snapshot at 17338 bootstrapped before or
// after 17339-17340 are indexed leaves the same rows in every table and view: the
// chain-order timestamps make a spend indexed first shadow the bootstrap's later insert.
func TestBootstrapAndIndexInEitherOrder(t *testing.T) {
	testcontainers.SkipShort(t)
	fake, _ := nodetest.Start(t)
	first, firstCfg := storetest.New(t, 0)
	later, laterCfg := storetest.New(t, 0)
	bootstrapReal(t, first)
	indexReal(t, first, fake)
	indexReal(t, later, fake)
	bootstrapReal(t, later)
	testcontainers.AssertSameData(t, firstCfg, laterCfg, "indexer_meta", "leases", "gocqlx_migrate", "sync")
}

func bootstrapReal(t *testing.T, st *store.Store) {
	t.Helper()
	if _, err := bootstrapFiles(t, st, Config{Full: realSnapshot}); err != nil {
		t.Fatal(err)
	}
}

func indexReal(t *testing.T, st *store.Store, fake *nodetest.Server) {
	t.Helper()
	src, err := node.New(node.Config{URL: fake.URL(), Created: st})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := ingest.New(src, st, ingest.Config{Start: 17339, StopAt: 17340}, nil, quiet).Run(ctx); err != nil {
		t.Fatal(err)
	}
}

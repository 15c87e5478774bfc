package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// A keyspace that releases before gocqlx's migrate made (golang-migrate's tables, every
// file applied) and indexed is opened by `indexer migrate` and `indexer run -migrate`:
// every file is recorded as applied, every row stays as it was, and the run goes on from
// the milestone the earlier one stopped at.
func TestMigrateAdoptsAGolangMigrateKeyspace(t *testing.T) {
	testcontainers.SkipShort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := testcontainers.EmptyKeyspace(t)
	files, err := migrations.Files()
	if err != nil {
		t.Fatal(err)
	}
	testcontainers.GolangMigrated(t, cfg, files)
	must(t, ensureChunkSize(ctx, cfg, store.DefaultChunkSize, "1"))
	sim := []string{"-source", "sim", "-follow=false", "-ops-addr", "", "-analytics-ledger=false"}
	must(t, cmdRun(ctx, slices.Concat(sim, []string{"-stop-at", "30"}, dbArgs(cfg))))

	g := testcontainers.Session(t, cfg).Gocql()
	before, err := testcontainers.Dump(ctx, g, cfg.Keyspace, "gocqlx_migrate")
	if err != nil {
		t.Fatal(err)
	}
	must(t, cmdMigrate(ctx, dbArgs(cfg)))
	after, err := testcontainers.Dump(ctx, g, cfg.Keyspace, "gocqlx_migrate")
	if err != nil {
		t.Fatal(err)
	}
	if diff := testcontainers.DiffDumps(before, after); diff != "" {
		t.Fatalf("indexer migrate changed the adopted keyspace's rows:\n%s", diff)
	}
	var recorded int
	if err := g.Query(`SELECT COUNT(*) FROM gocqlx_migrate`).Scan(&recorded); err != nil || recorded != len(files) {
		t.Fatalf("gocqlx_migrate lists %d files (%v), want %d", recorded, err, len(files))
	}

	must(t, cmdRun(ctx, slices.Concat(sim, []string{"-stop-at", "50", "-migrate"}, dbArgs(cfg))))
	if s := indexerStatus(t, ctx, cfg); s.Oldest != 1 || s.Newest != 50 || len(s.Gaps) != 0 {
		t.Fatalf("after the run on the adopted keyspace: synced %d..%d, gaps %v; want 1..50", s.Oldest, s.Newest, s.Gaps)
	}
}

package migrations_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// A keyspace golang-migrate migrated with every file but the newest (its
// schema_migrations and this project's schema_checksums as those binaries wrote them,
// holding data) is adopted: a dirty one and one whose recorded checksum differs are
// refused by name, recording nothing; then Up records the old files as applied without
// running them again (a table dropped since stays dropped), applies the newest, and
// keeps the data. One newer than this binary is refused.
func TestAdoptsAKeyspaceGolangMigrateMade(t *testing.T) {
	cfg := testcontainers.EmptyKeyspace(t)
	g, err := cfg.SchemaSession(cfg.Keyspace)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	ctx := context.Background()
	files, err := migrations.Files()
	if err != nil {
		t.Fatal(err)
	}
	old := files[:len(files)-1]
	testcontainers.GolangMigrated(t, cfg, old)
	testcontainers.Exec(t, g, `INSERT INTO indexer_meta (concern, value, watermark) VALUES ('network', 'shimmer', 7)`)
	testcontainers.Exec(t, g, `DROP TABLE tag_hints`) // created by 000002: a run of it again would bring it back

	testcontainers.Exec(t, g, `UPDATE schema_migrations SET dirty = true WHERE version = ?`, old[len(old)-1].Version)
	if err := migrations.Up(ctx, g, cfg.Keyspace); !errors.Is(err, migrations.ErrDirtyMigration) {
		t.Fatalf("dirty keyspace: %v, want ErrDirtyMigration", err)
	}
	testcontainers.Exec(t, g, `UPDATE schema_migrations SET dirty = false WHERE version = ?`, old[len(old)-1].Version)
	testcontainers.Exec(t, g, `UPDATE schema_checksums SET sha256 = 'beef' WHERE version = 3`)
	if err := migrations.Up(ctx, g, cfg.Keyspace); !errors.Is(err, migrations.ErrChangedMigration) {
		t.Fatalf("a changed file: %v, want ErrChangedMigration", err)
	}
	if n := appliedCount(t, g, cfg.Keyspace); n != 0 {
		t.Fatalf("a refused keyspace has %d files recorded in gocqlx_migrate, want none", n)
	}
	testcontainers.Exec(t, g, `UPDATE schema_checksums SET sha256 = ? WHERE version = 3`, files[2].SHA256)

	if err := migrations.Up(ctx, g, cfg.Keyspace); err != nil {
		t.Fatalf("adopting: %v", err)
	}
	assertAppliedWhole(t, applied(t, g), files)
	for table, want := range map[string]bool{"tag_hints": false, "milestone_families": true, "addresses_hints": true} {
		if got := tableCount(t, g, cfg.Keyspace, table) == 1; got != want {
			t.Errorf("table %s exists: %v, want %v", table, got, want)
		}
	}
	var network string
	if err := g.Query(`SELECT value FROM indexer_meta WHERE concern = 'network'`).Scan(&network); err != nil || network != "shimmer" {
		t.Fatalf("data after adoption: %q, %v", network, err)
	}
	before := applied(t, g)
	if err := migrations.Up(ctx, g, cfg.Keyspace); err != nil {
		t.Fatalf("Up after adoption: %v", err)
	}
	if after := applied(t, g); len(after) != len(before) || tableCount(t, g, cfg.Keyspace, "tag_hints") != 0 {
		t.Fatalf("Up after adoption changed what is applied: %v → %v", before, after)
	}

	testcontainers.Exec(t, g, `INSERT INTO schema_migrations (version, dirty) VALUES (99, false)`)
	testcontainers.Exec(t, g, `DELETE FROM schema_migrations WHERE version = ?`, old[len(old)-1].Version)
	if err := migrations.Up(ctx, g, cfg.Keyspace); !errors.Is(err, migrations.ErrNewerSchema) {
		t.Fatalf("golang-migrate at version 99: %v, want ErrNewerSchema", err)
	}
}

func tableCount(t *testing.T, g *gocql.Session, keyspace, table string) (n int) {
	t.Helper()
	err := g.Query(`SELECT COUNT(*) FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?`,
		keyspace, table).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// appliedCount is how many files gocqlx_migrate lists (0 when it does not exist).
func appliedCount(t *testing.T, g *gocql.Session, keyspace string) int {
	t.Helper()
	if tableCount(t, g, keyspace, "gocqlx_migrate") == 0 {
		return 0
	}
	return len(applied(t, g))
}

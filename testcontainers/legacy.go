package testcontainers

import (
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

// GolangMigrated leaves cfg's keyspace (made by EmptyKeyspace) as releases before gocqlx's
// migrate left it after applying files: every statement of each file run, golang-migrate's
// schema_migrations (its Cassandra driver's table: one row, the newest version, clean) and
// the schema_checksums table those releases kept (a sha256 per file, named *.up.cql).
func GolangMigrated(t testing.TB, cfg cql.Config, files []migrations.File) {
	t.Helper()
	g, err := cfg.SchemaSession(cfg.Keyspace)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, f := range files {
		stmts, err := migrations.FileStatements(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range stmts {
			Exec(t, g, stmt)
		}
	}
	Exec(t, g, `CREATE TABLE IF NOT EXISTS schema_migrations (version bigint, dirty boolean, PRIMARY KEY(version))`)
	Exec(t, g, `INSERT INTO schema_migrations (version, dirty) VALUES (?, false)`, files[len(files)-1].Version)
	Exec(t, g, `CREATE TABLE IF NOT EXISTS schema_checksums (version bigint, name text, sha256 text, PRIMARY KEY (version))`)
	for _, f := range files {
		Exec(t, g, `INSERT INTO schema_checksums (version, name, sha256) VALUES (?, ?, ?)`, f.Version,
			strings.TrimSuffix(f.Name, ".cql")+".up.cql", f.SHA256)
	}
}

// Exec runs one statement, failing the test with it on an error.
func Exec(t testing.TB, g *gocql.Session, stmt string, args ...any) {
	t.Helper()
	if err := g.Query(stmt, args...).Exec(); err != nil {
		t.Fatalf("%s: %v", strings.TrimSpace(stmt), err)
	}
}

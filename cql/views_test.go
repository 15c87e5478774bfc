package cql_test

import (
	"slices"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The fixed list of views is the one the migrations create, and DropViews leaves a
// keyspace with its base tables and no view.
func TestMaterializedViewsAreTheSchemas(t *testing.T) {
	_, cfg := testcontainers.NewKeyspaceOrSkip(t)
	schema, err := cfg.SchemaSession("")
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	var want []string
	for _, v := range cql.MaterializedViews {
		want = append(want, v.Base+"."+v.Name)
	}
	slices.Sort(want)
	if got := schemaViews(t, schema, cfg.Keyspace); !slices.Equal(got, want) {
		t.Fatalf("views of a migrated keyspace:\n got  %v\n want %v", got, want)
	}
	testcontainers.DropViews(t, cfg)
	if got := schemaViews(t, schema, cfg.Keyspace); len(got) != 0 {
		t.Fatalf("views left after DropViews: %v", got)
	}
	var tables int
	if err := schema.Query(`SELECT COUNT(*) FROM system_schema.tables WHERE keyspace_name = ?`, cfg.Keyspace).Scan(&tables); err != nil || tables == 0 {
		t.Fatalf("base tables after DropViews: %d, %v", tables, err)
	}
}

// schemaViews lists "base.view" of a keyspace's views, sorted.
func schemaViews(t *testing.T, s *gocql.Session, keyspace string) []string {
	t.Helper()
	it := s.Query(`SELECT base_table_name, view_name FROM system_schema.views WHERE keyspace_name = ?`, keyspace).Iter()
	var out []string
	var base, name string
	for it.Scan(&base, &name) {
		out = append(out, base+"."+name)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

package cql_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// schemaColumn is one column of a table or view as the node's system_schema lists it.
type schemaColumn struct {
	name, kind string
	position   int
}

// testModelsMatchTheSchema: every table and view of the migrated keyspace has a model
// (except gocqlx's own migration log), and each model names the same partition key and
// clustering key, in key order, and the same other columns.
func testModelsMatchTheSchema(t *testing.T, n node) {
	schema := schemaTables(t, n)
	for name, cols := range schema {
		m := cql.Model(name)
		if name == "gocqlx_migrate" {
			continue
		}
		if m == nil {
			t.Errorf("%s: the keyspace has it, no model does", name)
			continue
		}
		meta := m.Metadata()
		part, clustering, other := keyColumns(cols)
		if !slices.Equal(meta.PartKey, part) || !slices.Equal(meta.SortKey, clustering) {
			t.Errorf("%s: model keys %v %v, schema %v %v", name, meta.PartKey, meta.SortKey, part, clustering)
		}
		modelOther := slices.Clone(meta.Columns[len(meta.PartKey)+len(meta.SortKey):])
		sort.Strings(modelOther)
		if !slices.Equal(modelOther, other) {
			t.Errorf("%s: model columns %v, schema %v", name, modelOther, other)
		}
	}
	for _, m := range cql.Models() {
		if _, ok := schema[m.Name()]; !ok {
			t.Errorf("%s: a model of a table the keyspace lacks", m.Name())
		}
	}
}

// schemaTables reads the columns of every table and view of the test keyspace.
func schemaTables(t *testing.T, n node) map[string][]schemaColumn {
	it := n.s.Gocql().Query(`SELECT table_name, column_name, kind, position FROM system_schema.columns
		WHERE keyspace_name = ?`, n.cfg.Keyspace).WithContext(context.Background()).Iter()
	out := map[string][]schemaColumn{}
	var table string
	var c schemaColumn
	for it.Scan(&table, &c.name, &c.kind, &c.position) {
		out[table] = append(out[table], c)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 40 {
		t.Fatalf("read %d tables and views, want the whole schema's", len(out))
	}
	return out
}

// keyColumns splits a table's columns into its partition key and clustering key (in key
// order) and its other columns (by name).
func keyColumns(cols []schemaColumn) (part, clustering, other []string) {
	sort.Slice(cols, func(i, j int) bool { return cols[i].position < cols[j].position })
	for _, c := range cols {
		switch strings.ToLower(c.kind) {
		case "partition_key":
			part = append(part, c.name)
		case "clustering":
			clustering = append(clustering, c.name)
		default:
			other = append(other, c.name)
		}
	}
	sort.Strings(other)
	return part, clustering, other
}

package migrations_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"sort"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The seed's tables and views, plus this project's additions (docs/schema.md), sorted.
var wantTables = []string{
	"address_analytics", "address_balances", "address_ledger_updates", "addresses_hints", "alias_outputs", "basic_outputs",
	"daily_analytics", "daily_families", "date_cache", "foundry_outputs", "gocqlx_migrate", "indexer_meta", "leases", "ledger_family_deltas", "legacy_outputs", "messages",
	"messages_by_milestone", "metrics_cache", "milestone_families", "milestone_ledger_updates", "milestones", "milestones_by_bucket", "milestones_by_id",
	"ms_analytics", "nft_outputs", "parents", "receipts", "richest_addresses",
	"spent_outputs", "spent_outputs_by_address", "spent_outputs_milestones", "sync", "tag_hints", "tags",
	"token_distribution", "transactions", "unspent_outputs", "unspent_outputs_by_address",
}

var wantViews = []string{
	"alias_outputs_by_governor", "alias_outputs_by_issuer", "alias_outputs_by_sender", "alias_outputs_by_state_controller",
	"basic_outputs_by_address", "basic_outputs_by_sender", "basic_outputs_by_tag", "foundry_outputs_by_address",
	"legacy_outputs_by_address", "nft_outputs_by_address", "nft_outputs_by_dust_return_address", "nft_outputs_by_issuer",
	"nft_outputs_by_sender", "nft_outputs_by_tag", "parents_by_ms", "transactions_by_state",
}

func TestUpCreatesEveryTableAndViewAndIsRepeatable(t *testing.T) {
	s, cfg := testcontainers.NewKeyspace(t)
	ctx := context.Background()
	g := s.Gocql()
	assertNames(t, names(t, g.Query(`SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?`, cfg.Keyspace).Iter()), wantTables)
	assertNames(t, names(t, g.Query(`SELECT view_name FROM system_schema.views WHERE keyspace_name = ?`, cfg.Keyspace).Iter()), wantViews)

	files, err := migrations.Files()
	if err != nil {
		t.Fatal(err)
	}
	before := applied(t, g)
	assertAppliedWhole(t, before, files)
	if err := migrations.Up(ctx, g, cfg.Keyspace); err != nil {
		t.Fatalf("second Up: %v", err)
	}
	if after := applied(t, g); !maps.Equal(after, before) {
		t.Fatalf("second Up changed gocqlx_migrate:\n%v\n→ %v", before, after)
	}
}

// appliedRow is a gocqlx_migrate row: its checksum, statements done and end time.
type appliedRow struct {
	checksum string
	done     int
	end      time.Time
}

func applied(t *testing.T, g *gocql.Session) map[string]appliedRow {
	t.Helper()
	out := map[string]appliedRow{}
	iter := g.Query(`SELECT name, checksum, done, end_time FROM gocqlx_migrate`).Iter()
	var (
		name string
		r    appliedRow
	)
	for iter.Scan(&name, &r.checksum, &r.done, &r.end) {
		out[name] = r
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertAppliedWhole checks that gocqlx_migrate lists every file, with its checksum and
// all its statements done.
func assertAppliedWhole(t *testing.T, got map[string]appliedRow, files []migrations.File) {
	t.Helper()
	if len(got) != len(files) {
		t.Fatalf("gocqlx_migrate lists %d files, want %d: %v", len(got), len(files), got)
	}
	for _, f := range files {
		if r := got[f.Name]; r.checksum != f.MD5 || r.done != f.Statements || f.Statements == 0 {
			t.Fatalf("%s: recorded %+v, want md5 %s and %d statements done", f.Name, r, f.MD5, f.Statements)
		}
	}
}

func TestUpRefusesAChangedMigration(t *testing.T) {
	s, cfg := testcontainers.NewKeyspace(t)
	changed := fstest.MapFS{}
	err := fs.WalkDir(migrations.Source(), "cql", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(migrations.Source(), path)
		changed[path] = &fstest.MapFile{Data: body}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f := changed["cql/000002_hints.cql"]
	f.Data = append(append([]byte{}, f.Data...), []byte("\n-- edited after it was applied\n")...)
	err = migrations.UpFrom(context.Background(), s.Gocql(), cfg.Keyspace, changed)
	if !errors.Is(err, migrations.ErrChangedMigration) {
		t.Fatalf("Up with an edited applied migration: got %v, want ErrChangedMigration", err)
	}
	t.Logf("refused as expected: %v", err)
}

func TestReplicationCQL(t *testing.T) {
	cases := []struct {
		r    migrations.Replication
		want string
		ok   bool
	}{
		{migrations.Replication{Factor: 1}, "{'class': 'SimpleStrategy', 'replication_factor': 1}", true},
		{migrations.Replication{DataCenters: map[string]int{"dc2": 2, "dc1": 3}},
			"{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2}", true},
		{migrations.Replication{Factor: 0}, "", false},
		{migrations.Replication{DataCenters: map[string]int{"dc1'; DROP": 3}}, "", false},
	}
	for _, c := range cases {
		got, err := c.r.CQL()
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%+v: got %q, %v; want %q ok=%v", c.r, got, err, c.want, c.ok)
		}
	}
	if migrations.ValidKeyspace("stardust") != nil || migrations.ValidKeyspace("x; DROP") == nil {
		t.Error("ValidKeyspace accepts or refuses the wrong names")
	}
}

type scanner interface {
	Scan(...any) bool
	Close() error
}

func names(t *testing.T, it scanner) []string {
	var out []string
	var n string
	for it.Scan(&n) {
		out = append(out, n)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func assertNames(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d names %v\nwant %d %v", len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	}
}

package testcontainers

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

var keyspaceSeq atomic.Int64

// Config returns a cql.Config for the test cluster (CQL_HOSTS or the local node) and
// the given keyspace, failing the test with the node's log tail when none can be had.
func Config(t testing.TB, keyspace string) cql.Config {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout+5*time.Minute)
	defer cancel()
	hosts, err := Hosts(ctx)
	if err != nil {
		t.Fatalf("no CQL endpoint: %v", err)
	}
	return configFor(t, hosts, keyspace)
}

func configFor(t testing.TB, hosts []string, keyspace string) cql.Config {
	t.Helper()
	cfg := cql.DefaultConfig()
	cfg.Hosts, cfg.Keyspace = hosts, keyspace
	cfg, err := cfg.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Hosts, cfg.Keyspace = hosts, keyspace
	return cfg
}

// NewKeyspace creates a fresh keyspace named after the test, migrated to the latest
// schema, and returns a session on it. The keyspace is dropped when the test ends
// (kept when KEEP_KEYSPACES=1, for a look after a failure).
// The first one of a process also drops the test keyspaces killed runs left on the
// cluster (DropStaleKeyspaces).
func NewKeyspace(t testing.TB) (*cql.Session, cql.Config) {
	t.Helper()
	cfg := Config(t, uniqueKeyspace(t.Name()))
	dropStaleOnce(t, cfg)
	return newKeyspace(t, cfg)
}

// NewKeyspaceOn is NewKeyspace on the node(s) at hosts instead of the test cluster (a
// node the test started itself, e.g. with StartNode).
func NewKeyspaceOn(t testing.TB, hosts []string) (*cql.Session, cql.Config) {
	t.Helper()
	return newKeyspace(t, configFor(t, hosts, uniqueKeyspace(t.Name())))
}

func newKeyspace(t testing.TB, cfg cql.Config) (*cql.Session, cql.Config) {
	t.Helper()
	if err := migrations.Apply(context.Background(), cfg.Keyspace, migrations.Replication{Factor: 1}, cfg.SchemaSession); err != nil {
		t.Fatalf("%v\n%s", err, LogTail(DefaultDir(), 30))
	}
	sess, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dropWhenDone(t, cfg)
	t.Cleanup(sess.Close)
	return sess, cfg
}

// EmptyKeyspace creates a fresh keyspace named after the test with no tables at all,
// dropped when the test ends, and returns its configuration: for tests of the
// migrations themselves.
func EmptyKeyspace(t testing.TB) cql.Config {
	t.Helper()
	cfg := Config(t, uniqueKeyspace(t.Name()))
	dropStaleOnce(t, cfg)
	admin, err := cfg.SchemaSession("")
	if err != nil {
		t.Fatal(err)
	}
	err = migrations.CreateKeyspace(context.Background(), admin, cfg.Keyspace, migrations.Replication{Factor: 1})
	admin.Close()
	if err != nil {
		t.Fatal(err)
	}
	dropWhenDone(t, cfg)
	return cfg
}

// dropWhenDone drops cfg's keyspace when the test ends, unless KEEP_KEYSPACES=1 keeps it
// for a look after a failure. Cleanups run last-registered first: register it before
// anything that must close first.
func dropWhenDone(t testing.TB, cfg cql.Config) {
	t.Cleanup(func() {
		if os.Getenv("KEEP_KEYSPACES") != "1" {
			DropKeyspace(cfg)
		}
	})
}

// Session opens a session of the test's own on cfg's keyspace, closed when the test
// ends: for checks of what was written around the code under test (dumps, raw selects).
func Session(t testing.TB, cfg cql.Config) *cql.Session {
	t.Helper()
	s, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// ObservedSession opens a session on cfg as Session does, with obs (gocql's
// QueryObserver, nil for none) told of every driver attempt: for tests that trace which
// host and statement a query spent its time on.
func ObservedSession(t testing.TB, cfg cql.Config, obs gocql.QueryObserver) *cql.Session {
	t.Helper()
	cl := cfg.Cluster()
	cl.QueryObserver = obs
	g, err := cl.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	s := cql.Wrap(g, cfg)
	t.Cleanup(s.Close)
	return s
}

// DropKeyspace removes a test keyspace (best effort), through a schema session: dropping a
// migrated keyspace's tables and views takes seconds on a busy node, past a query timeout.
func DropKeyspace(cfg cql.Config) {
	admin := cfg
	admin.Keyspace = ""
	if s, err := cql.OpenSchema(admin); err == nil {
		_ = migrations.DropKeyspace(context.Background(), s.Gocql(), cfg.Keyspace)
		s.Close()
	}
}

// uniqueKeyspace names a test's keyspace: "t_", its creation time (Unix seconds), the
// test's name, the process ID and a sequence number, at most 48 characters. The creation
// time lets later runs tell a keyspace a killed run left (DropStaleKeyspaces).
func uniqueKeyspace(testName string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 32
		}
		return '_'
	}, testName)
	if len(clean) > 20 {
		clean = clean[:20]
	}
	return fmt.Sprintf("t_%d_%s_%d_%d", time.Now().Unix(), clean, os.Getpid()%100000, keyspaceSeq.Add(1))
}

// DropViews drops every materialized view of cfg's keyspace through a schema session
// (which waits for schema agreement), leaving its base tables: the benchmarks of the
// views' cost use it on a keyspace of their own. A view's name is an identifier from
// cql's fixed list, never a value.
func DropViews(t testing.TB, cfg cql.Config) {
	t.Helper()
	schema, err := cfg.SchemaSession(cfg.Keyspace)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	for _, v := range cql.MaterializedViews {
		if err := schema.Query("DROP MATERIALIZED VIEW IF EXISTS " + v.Name).Exec(); err != nil {
			t.Fatalf("drop view %s: %v", v.Name, err)
		}
	}
}

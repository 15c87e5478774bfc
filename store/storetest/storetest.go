// Package storetest gives tests a store on a fresh keyspace, left as `indexer migrate`
// leaves one (schema applied, chunk size recorded), and reads of its rows around the
// store, for checks of what was written.
package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// keyspaces are the keyspaces of the stores New made, for Rows.
var keyspaces sync.Map // *store.Store -> *keyspace

// keyspace is a store's keyspace and the session of the test's own on it, opened by
// the first Rows.
type keyspace struct {
	cfg  cql.Config
	once sync.Once
	raw  *cql.Session
	err  error
}

// New is a store on a fresh migrated keyspace (dropped when the test ends, see
// testcontainers.NewKeyspace) with chunkSize recorded, and the keyspace's config.
func New(t testing.TB, chunkSize uint32) (*store.Store, cql.Config) {
	t.Helper()
	sess, cfg := testcontainers.NewKeyspace(t)
	return adopt(t, sess, cfg, chunkSize)
}

// NewOrSkip is New for a test that runs only with a node: under -short it skips the
// test instead.
func NewOrSkip(t testing.TB, chunkSize uint32) (*store.Store, cql.Config) {
	t.Helper()
	testcontainers.SkipShort(t)
	return New(t, chunkSize)
}

// NewOn is New on the node(s) at hosts (see testcontainers.NewKeyspaceOn).
func NewOn(t testing.TB, hosts []string, chunkSize uint32) (*store.Store, cql.Config) {
	t.Helper()
	sess, cfg := testcontainers.NewKeyspaceOn(t, hosts)
	return adopt(t, sess, cfg, chunkSize)
}

func adopt(t testing.TB, sess *cql.Session, cfg cql.Config, chunkSize uint32) (*store.Store, cql.Config) {
	t.Helper()
	st := store.New(sess, chunkSize)
	if err := st.EnsureChunkSize(context.Background(), "test"); err != nil {
		t.Fatal(err)
	}
	ks := &keyspace{cfg: cfg}
	keyspaces.Store(st, ks)
	t.Cleanup(func() {
		keyspaces.Delete(st)
		if ks.raw != nil {
			ks.raw.Close()
		}
	})
	return st, cfg
}

// Rows reads every row of a query on the keyspace of st (a store New made) through a
// session of the test's own, not through the store.
func Rows(t testing.TB, st *store.Store, query string) []map[string]any {
	t.Helper()
	v, ok := keyspaces.Load(st)
	if !ok {
		t.Fatal("storetest.Rows: the store was not made by storetest.New")
	}
	ks := v.(*keyspace)
	ks.once.Do(func() { ks.raw, ks.err = cql.Open(ks.cfg) })
	if ks.err != nil {
		t.Fatal(ks.err)
	}
	rows, err := ks.raw.Gocql().Query(query).Iter().SliceMap()
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return rows
}

// AssertNoGaps fails the test unless the sync table of st holds milestones from..to,
// each of them, and no other.
func AssertNoGaps(t testing.TB, st *store.Store, from, to uint32) {
	t.Helper()
	s, err := st.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Oldest != from || s.Newest != to || len(s.Gaps) != 0 {
		t.Fatalf("sync: oldest %d newest %d gaps %v; want %d..%d without gaps", s.Oldest, s.Newest, s.Gaps, from, to)
	}
}

// NewWithoutViews is New on a keyspace whose materialized views were dropped (base
// tables only), for benchmarks of what the views cost. Reads of views fail there.
func NewWithoutViews(t testing.TB, chunkSize uint32) (*store.Store, cql.Config) {
	t.Helper()
	st, cfg := New(t, chunkSize)
	testcontainers.DropViews(t, cfg)
	return st, cfg
}

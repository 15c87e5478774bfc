package testcontainers

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// SkipShort skips the test under -short: it needs a Cassandra node, which short runs
// go without.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a Cassandra node (-short)")
	}
}

// NewKeyspaceOrSkip is NewKeyspace for a test that runs only with a node: under -short
// it skips the test instead.
func NewKeyspaceOrSkip(t testing.TB) (*cql.Session, cql.Config) {
	t.Helper()
	SkipShort(t)
	return NewKeyspace(t)
}

package store

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// nodeStore is a store (chunk size 10) on a fresh keyspace of the test node; with -short
// it skips the test.
func nodeStore(t *testing.T) *Store {
	t.Helper()
	sess, _ := testcontainers.NewKeyspaceOrSkip(t)
	return New(sess, 10)
}

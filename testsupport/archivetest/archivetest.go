// Package archivetest gives tests archive files exported from their own stores.
package archivetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// ExportFile exports milestones from..to of st, as `indexer export` does, into a file of
// the test's temporary directory, and returns its path.
func ExportFile(t testing.TB, st *store.Store, from, to uint32) string {
	t.Helper()
	path, f := Create(t, "ms.sdxa.gz")
	defer f.Close()
	if err := archive.Export(context.Background(), st, from, to, f, nil); err != nil {
		t.Fatalf("export %d..%d: %v", from, to, err)
	}
	return path
}

// Create creates the file name in the test's temporary directory, for an archive to be
// written into, and returns its path and the file (the caller closes it).
func Create(t testing.TB, name string) (string, *os.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, f
}

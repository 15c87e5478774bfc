// Package bintest builds the project's binaries for tests that run them as an operator
// does.
package bintest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Indexer is BuildIndexer for a test that runs the binary: under -short it skips the
// test, as building and running the binary takes longer than short runs allow.
func Indexer(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the indexer binary")
	}
	return BuildIndexer(t)
}

// BuildIndexer builds cmd/indexer into the test's temporary directory and returns the
// binary's path.
func BuildIndexer(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "indexer")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/stardust-indexer/stardust-indexer/cmd/indexer")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

package snapshottest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// RealFile is the real Shimmer full snapshot file in Testdata (its source and licence
// are in source/snapshot/testdata/README.md).
const RealFile = "snapshot_dev_full_17338.bin"

// TestdataPath is the path of a file of source/snapshot/testdata, found from this
// package's source so that tests of any package use the same files.
func TestdataPath(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "source", "snapshot", "testdata", name)
}

// Testdata reads a file of source/snapshot/testdata.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(TestdataPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Contents is a whole file as the reader returned it.
type Contents struct {
	Kind    snapshot.Kind
	Full    *snapshot.FullHeader
	Delta   *snapshot.DeltaHeader
	Outputs []*snapshot.Output
	Diffs   []*snapshot.Diff
	SEPs    []chain.MessageID
}

// ReadAll reads a file to its end, Finish included; it stops at the first error.
func ReadAll(data []byte) (*Contents, error) {
	r, err := snapshot.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := &Contents{Kind: r.Kind(), Full: r.Full(), Delta: r.Delta()}
	if c.Outputs, err = readEach(r.NextOutput); err != nil {
		return c, err
	}
	if c.Diffs, err = readEach(r.NextDiff); err != nil {
		return c, err
	}
	if c.SEPs, err = readEach(r.NextSEP); err != nil {
		return c, err
	}
	return c, r.Finish()
}

// readEach calls next until io.EOF; it stops at the first error.
func readEach[T any](next func() (T, error)) ([]T, error) {
	var out []T
	for {
		v, err := next()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

// MustReadAll is ReadAll that must succeed.
func MustReadAll(t testing.TB, data []byte) *Contents {
	t.Helper()
	c, err := ReadAll(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// DiffIndexes are the diffs' milestone indexes in order.
func DiffIndexes(diffs []*snapshot.Diff) []uint32 {
	var out []uint32
	for _, d := range diffs {
		out = append(out, d.Index())
	}
	return out
}

// FirstDiff is the offset of the first byte where a and b differ (the shorter length
// when one is a prefix of the other).
func FirstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

package snapshot_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// FuzzReader: no input makes the reader panic or loop; every refusal is a *FormatError;
// and every file it reads to the end, the Writer writes back byte for byte.
func FuzzReader(f *testing.F) {
	for _, data := range allFiles(f) {
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte{snapshot.Version, byte(snapshot.KindDelta)})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := snapshottest.ReadAll(data)
		if err != nil {
			mustBeFormatError(t, err)
			return
		}
		for _, o := range c.Outputs {
			if _, err := o.Ledger(); err != nil {
				mustBeFormatError(t, err)
			}
		}
		for _, d := range c.Diffs {
			if _, _, err := d.Ledger(); err != nil {
				mustBeFormatError(t, err)
			}
		}
		again, err := write(c)
		if err != nil {
			t.Fatalf("the writer refuses a file the reader read: %v", err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("rewritten file differs from byte %d", snapshottest.FirstDiff(again, data))
		}
	})
}

func mustBeFormatError(t *testing.T, err error) {
	t.Helper()
	var fe *snapshot.FormatError
	if !errors.As(err, &fe) || err == io.EOF {
		t.Fatalf("refusal %v (%T) is not a *FormatError", err, err)
	}
}

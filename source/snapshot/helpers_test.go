package snapshot_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

var hornetNames = []string{"full_snapshot.bin", "migration_full_snapshot.bin",
	"snapshot_full_snapshot.bin", "snapshot_delta_snapshot.bin"}

func hornetFile(t testing.TB, name string) []byte {
	return snapshottest.Testdata(t, filepath.Join("hornet", name))
}

// allFiles is every test file by name.
func allFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{snapshottest.RealFile: snapshottest.Testdata(t, snapshottest.RealFile)}
	for _, n := range hornetNames {
		files[n] = hornetFile(t, n)
	}
	return files
}

// write writes c with the Writer into a fresh in-memory file.
func write(c *snapshottest.Contents) ([]byte, error) {
	f := &snapshottest.MemFile{}
	var w *snapshot.Writer
	var err error
	if c.Full != nil {
		w, err = snapshot.NewFullWriter(f, *c.Full)
	} else {
		w, err = snapshot.NewDeltaWriter(f, *c.Delta)
	}
	if err != nil {
		return nil, err
	}
	for _, o := range c.Outputs {
		if err := w.WriteOutput(o); err != nil {
			return nil, err
		}
	}
	for _, d := range c.Diffs {
		if err := w.WriteDiff(d); err != nil {
			return nil, err
		}
	}
	for _, id := range c.SEPs {
		if err := w.WriteSEP(id); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return f.Buf, nil
}

// wantFormatError checks that err is a *FormatError with the sentinel and offset.
func wantFormatError(t testing.TB, err, sentinel error, offset int64) *snapshot.FormatError {
	t.Helper()
	var fe *snapshot.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	if !errors.Is(err, sentinel) || fe.Err != sentinel {
		t.Fatalf("error %v: want sentinel %q", err, sentinel)
	}
	if fe.Offset != offset {
		t.Fatalf("error %v: offset %d, want %d", err, fe.Offset, offset)
	}
	return fe
}

// patched is a copy of data with b written at offset.
func patched(data []byte, offset int, b ...byte) []byte {
	out := bytes.Clone(data)
	copy(out[offset:], b)
	return out
}

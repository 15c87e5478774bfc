package snapshot_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// The test files (testdata/README.md gives their source and licence).
const realFile = "snapshot_dev_full_17338.bin"

var hornetNames = []string{"full_snapshot.bin", "migration_full_snapshot.bin",
	"snapshot_full_snapshot.bin", "snapshot_delta_snapshot.bin"}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hornetFile(t testing.TB, name string) []byte {
	return readTestdata(t, filepath.Join("hornet", name))
}

// allFiles is every test file by name.
func allFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{realFile: readTestdata(t, realFile)}
	for _, n := range hornetNames {
		files[n] = hornetFile(t, n)
	}
	return files
}

// contents is a whole file as the reader returned it.
type contents struct {
	kind    snapshot.Kind
	full    *snapshot.FullHeader
	delta   *snapshot.DeltaHeader
	outputs []*snapshot.Output
	diffs   []*snapshot.Diff
	seps    []chain.MessageID
}

// readAll reads a file to its end, Finish included; it stops at the first error.
func readAll(data []byte) (*contents, error) {
	r, err := snapshot.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := &contents{kind: r.Kind(), full: r.Full(), delta: r.Delta()}
	for {
		o, err := r.NextOutput()
		if err == io.EOF {
			break
		} else if err != nil {
			return c, err
		}
		c.outputs = append(c.outputs, o)
	}
	for {
		d, err := r.NextDiff()
		if err == io.EOF {
			break
		} else if err != nil {
			return c, err
		}
		c.diffs = append(c.diffs, d)
	}
	for {
		id, err := r.NextSEP()
		if err == io.EOF {
			break
		} else if err != nil {
			return c, err
		}
		c.seps = append(c.seps, id)
	}
	return c, r.Finish()
}

func mustReadAll(t testing.TB, data []byte) *contents {
	t.Helper()
	c, err := readAll(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// write writes c with the Writer into a fresh in-memory file.
func write(c *contents) ([]byte, error) {
	f := &memFile{}
	var w *snapshot.Writer
	var err error
	if c.full != nil {
		w, err = snapshot.NewFullWriter(f, *c.full)
	} else {
		w, err = snapshot.NewDeltaWriter(f, *c.delta)
	}
	if err != nil {
		return nil, err
	}
	for _, o := range c.outputs {
		if err := w.WriteOutput(o); err != nil {
			return nil, err
		}
	}
	for _, d := range c.diffs {
		if err := w.WriteDiff(d); err != nil {
			return nil, err
		}
	}
	for _, id := range c.seps {
		if err := w.WriteSEP(id); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return f.buf, nil
}

// memFile is an in-memory io.WriteSeeker.
type memFile struct {
	buf []byte
	pos int64
}

func (f *memFile) Write(p []byte) (int, error) {
	if end := f.pos + int64(len(p)); end > int64(len(f.buf)) {
		f.buf = append(f.buf, make([]byte, end-int64(len(f.buf)))...)
	}
	copy(f.buf[f.pos:], p)
	f.pos += int64(len(p))
	return len(p), nil
}

func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.pos
	case io.SeekEnd:
		offset += int64(len(f.buf))
	}
	if offset < 0 {
		return 0, errors.New("memFile: negative position")
	}
	f.pos = offset
	return offset, nil
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

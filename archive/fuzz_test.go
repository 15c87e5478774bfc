package archive_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
)

// FuzzReader: no input makes the reader panic, loop or allocate without bound; every
// refusal is a *CorruptError, or a *TooLargeError for a record declared over the cap.
func FuzzReader(f *testing.F) {
	good := simArchive(f, 2, 4)
	f.Add(good)
	f.Add(gzipped(gunzip(f, good)[:200]))
	f.Add(gzipped([]byte(archive.Magic)))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, gzipped(data)} {
			r, err := archive.NewReader(bytes.NewReader(in), "fuzz")
			if err != nil {
				mustBeCorrupt(t, err)
				continue
			}
			for range 1 << 16 {
				if _, err = r.Next(); err != nil {
					break
				}
			}
			if err != nil && err.Error() != "EOF" {
				mustBeCorrupt(t, err)
			}
		}
	})
}

func mustBeCorrupt(t *testing.T, err error) {
	t.Helper()
	var corrupt *archive.CorruptError
	var tooLarge *archive.TooLargeError
	if errors.As(err, &tooLarge) && errors.Is(err, archive.ErrTooLarge) {
		return
	}
	if !errors.As(err, &corrupt) || !errors.Is(err, archive.ErrCorrupt) {
		t.Fatalf("refusal %v (%T) is not a CorruptError", err, err)
	}
}

package archive_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
)

func regzip(t *testing.T, plain []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	if _, err := gz.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A record skipped undecoded is still checked against its checksum.
func TestSkippedRecordChecked(t *testing.T) {
	plain := gunzip(t, simArchive(t, 2, 4))
	plain[recordOffsets(t, plain)[0]+10] ^= 1
	r, err := archive.NewReader(bytes.NewReader(regzip(t, plain)), "mem")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Skip(); err == nil {
		t.Fatal("a damaged record was skipped without an error")
	}
}

// A damaged end marker is an error after the last milestone, not the end.
func TestDamagedEndMarker(t *testing.T) {
	plain := gunzip(t, simArchive(t, 2, 3))
	plain[len(plain)-1] ^= 1
	r, err := archive.NewReader(bytes.NewReader(regzip(t, plain)), "mem")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("after the last milestone of a damaged end marker: %v, want an error", err)
	}
}

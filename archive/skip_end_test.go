package archive_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
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

// Closing a writer before its range is written names the last milestone written.
func TestCloseBeforeTheRangeEnds(t *testing.T) {
	src := simChain(5)
	var buf bytes.Buffer
	w, err := archive.NewWriter(&buf, archive.Header{Network: store.RecordOf(sim.Network()), From: 2, To: 5})
	if err != nil {
		t.Fatal(err)
	}
	for i := uint32(2); i <= 3; i++ {
		vm, err := src.Milestone(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		if err := w.Write(cm); err != nil {
			t.Fatal(err)
		}
	}
	want := "archive: closed after milestone 3, the range ends at 5"
	if err := w.Close(); err == nil || err.Error() != want {
		t.Fatalf("Close after 2..3 of 2..5: %v, want %q", err, want)
	}
}

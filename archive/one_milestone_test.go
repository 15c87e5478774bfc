package archive_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
)

// An archive of a single milestone (From = To) is a valid archive.
func TestArchiveOfOneMilestone(t *testing.T) {
	r, err := archive.NewReader(bytes.NewReader(simArchive(t, 5, 5)), "mem")
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.From != 5 || h.To != 5 {
		t.Fatalf("header %+v, want 5..5", h)
	}
	if cm, err := r.Next(); err != nil || cm.Index != 5 {
		t.Fatalf("the one milestone: %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after it: %v, want io.EOF", err)
	}
}

// A record of exactly the cap is read.
func TestRecordAtTheCapRead(t *testing.T) {
	data := simArchive(t, 2, 3)
	plain := gunzip(t, data)
	first := recordOffsets(t, plain)[0]
	size := binary.LittleEndian.Uint32(plain[first:])
	r, err := archive.NewReader(bytes.NewReader(data), "mem")
	if err != nil {
		t.Fatal(err)
	}
	r.SetMaxRecord(size)
	if _, err := r.Next(); err != nil {
		t.Fatalf("a record of %d bytes under a cap of %d: %v", size, size, err)
	}
}

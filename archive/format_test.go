package archive_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// TestRoundTripWithoutDatabase: milestones written and read back are the ones the sim
// gave, and pass verification against the sim's keys.
func TestRoundTripWithoutDatabase(t *testing.T) {
	const from, to = 2, 12
	data := simArchive(t, from, to)
	r, err := archive.NewReader(bytes.NewReader(data), "mem")
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.From != from || h.To != to || h.Network.Name != sim.NetworkName {
		t.Fatalf("header %+v", h)
	}
	src := simChain(to)
	for i := uint32(from); i <= to; i++ {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		want, _ := src.Confirmed(context.Background(), i)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("milestone %d read back differs from the sim's", i)
		}
		if _, err := chain.Verify(got, sim.Network()); err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last milestone: %v, want io.EOF", err)
	}
}

// TestReaderRefusesMissingEndMarker: an archive cut exactly after a record (a valid
// gzip stream) is truncated all the same.
func TestReaderRefusesMissingEndMarker(t *testing.T) {
	data := simArchive(t, 2, 4)
	plain := gunzip(t, data)
	cut := plain[:len(plain)-12] // without the end marker
	r, err := archive.NewReader(bytes.NewReader(gzipped(cut)), "mem")
	if err != nil {
		t.Fatal(err)
	}
	var corrupt *archive.CorruptError
	for i := 0; ; i++ {
		_, err := r.Next()
		if err == nil {
			continue
		}
		if !errors.As(err, &corrupt) || corrupt.Record != 4 || corrupt.Offset != int64(len(cut)) {
			t.Fatalf("got %v, want record 4 at offset %d refused", err, len(cut))
		}
		return
	}
}

package archive_test

import (
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync/atomic"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// declared1GiB is the length the crafted records declare.
const declared1GiB = 1 << 30

// TestOverCapRecordRefusedUnread: a record declaring 1 GiB, followed by as many bytes as
// the reader pulls, is a TooLargeError naming the record and offset, and the reader
// pulls no more than its read buffer of the stream (it reads no body).
func TestOverCapRecordRefusedUnread(t *testing.T) {
	plain := gunzip(t, simArchive(t, 2, 3))
	first := recordOffsets(t, plain)[0]
	stream := &counting{r: endlessRecord(t, plain[:first])}
	r, err := archive.NewReader(stream, "crafted")
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	var tooLarge *archive.TooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Record != 1 || tooLarge.Offset != first ||
		tooLarge.Declared != declared1GiB || tooLarge.Max != archive.DefaultMaxRecord {
		t.Fatalf("record declaring 1 GiB: %v, want a TooLargeError of record 1 at offset %d", err, first)
	}
	pulled := stream.n.Load()
	t.Logf("%v (%d KiB of the stream pulled)", err, pulled>>10)
	if pulled > 128<<10 {
		t.Fatalf("the reader pulled %d KiB of the stream for a record it refused", pulled>>10)
	}
}

// endlessRecord is a gzip stream (stored, so its size is what is decompressed) of head
// then a record declaring 1 GiB, whose body is written only as fast as it is read.
func endlessRecord(t *testing.T, head []byte) io.Reader {
	pr, pw := io.Pipe()
	t.Cleanup(func() { pr.Close() })
	go func() {
		gz, _ := gzip.NewWriterLevel(pw, gzip.NoCompression)
		_, err := gz.Write(binary.LittleEndian.AppendUint32(head, declared1GiB))
		zeros := make([]byte, 1<<20)
		for i := 0; i < declared1GiB>>20 && err == nil; i++ {
			_, err = gz.Write(zeros)
		}
		if err == nil {
			err = gz.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr
}

// counting counts the bytes read through it.
type counting struct {
	r io.Reader
	n atomic.Int64
}

func (c *counting) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// TestSourceCapFromLimits: a source opened with a cap below a record's size refuses the
// milestone as a source.Refusal wrapping the TooLargeError, and every later one.
func TestSourceCapFromLimits(t *testing.T) {
	path := writeFile(t, simArchive(t, 2, 4))
	src, err := archive.OpenLimited([]string{path}, simKeys(), archive.Limits{MaxRecord: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, i := range []uint32{2, 3} {
		_, err := src.Milestone(context.Background(), i)
		var tooLarge *archive.TooLargeError
		if !errors.As(err, new(*source.Refusal)) || !errors.As(err, &tooLarge) || tooLarge.Max != 1000 ||
			tooLarge.Record != 1 {
			t.Fatalf("milestone %d: %v, want record 1 refused over the cap of 1000", i, err)
		}
	}
}

// TestImportStopsAtOverCapRecord: an archive whose sixth record declares 1 GiB is imported
// up to the record before it; the import stops with the TooLargeError, and nothing of
// that milestone or after it is written.
func TestImportStopsAtOverCapRecord(t *testing.T) {
	const from, to, bad = 2, 12, 6
	plain := gunzip(t, simArchive(t, from, to))
	off := recordOffsets(t, plain)[bad-1]
	binary.LittleEndian.PutUint32(plain[off:], declared1GiB)
	st, _ := storetest.New(t, testChunk)
	err := importFiles(t, st, compressed(t, plain))
	var tooLarge *archive.TooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Record != bad || tooLarge.Offset != off {
		t.Fatalf("import: %v; want record %d at offset %d refused as over the cap", err, bad, off)
	}
	t.Log(err)
	assertHoldsUpTo(t, st, from, from+bad-2, to)
}

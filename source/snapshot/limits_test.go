package snapshot_test

import (
	"bytes"
	"crypto/sha256"
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// A diff stating a length above the limit is refused at its length field, before any of
// its bytes is read or anything the size of it is allocated: the reader stops right after
// the four bytes of the length.
func TestDiffLengthCap(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	d := layoutOf(t, delta).diffs[1]
	for name, n := range map[string]uint32{
		"one byte past the limit": uint32(snapshot.DefaultLimits.DiffLength + 1),
		"4 GiB":                   math.MaxUint32,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := snapshot.NewReader(bytes.NewReader(patched(delta, int(d), le32(n)...)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.NextDiff(); err != nil {
				t.Fatalf("diff 0: %v", err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = r.NextDiff()
			runtime.ReadMemStats(&after)
			wantFormatError(t, err, snapshot.ErrDiffTooLarge, d)
			if r.Offset() != d+4 {
				t.Errorf("the reader went on to offset %d, the diff's length ends at %d", r.Offset(), d+4)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
				t.Errorf("refusing the diff allocated %d bytes", grew)
			}
			t.Logf("refused: %v", err)
		})
	}
}

// The limit of all diffs refuses the diff that passes it, at its length field; the diffs
// before it are read.
func TestDiffsTotalCap(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	l := layoutOf(t, delta)
	two := int64(diffLength(delta, l.diffs[0]) + diffLength(delta, l.diffs[1]))
	r, err := snapshot.NewReader(bytes.NewReader(delta))
	if err != nil {
		t.Fatal(err)
	}
	r.SetLimits(snapshot.Limits{DiffsLength: two})
	for i := range 2 {
		if _, err := r.NextDiff(); err != nil {
			t.Fatalf("diff %d: %v", i, err)
		}
	}
	_, err = r.NextDiff()
	wantFormatError(t, err, snapshot.ErrDiffsTooLarge, l.diffs[2])
	if r.Offset() != l.diffs[2]+4 {
		t.Errorf("the reader went on to offset %d", r.Offset())
	}
}

// SetLimits's one-diff limit applies as the default does.
func TestDiffLengthCapSet(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	d := layoutOf(t, delta).diffs[0]
	r, err := snapshot.NewReader(bytes.NewReader(delta))
	if err != nil {
		t.Fatal(err)
	}
	r.SetLimits(snapshot.Limits{DiffLength: int64(diffLength(delta, d)) - 1})
	_, err = r.NextDiff()
	wantFormatError(t, err, snapshot.ErrDiffTooLarge, d)
}

// OutputsDigest is the SHA-256 of the bytes between the header and the first diff, ready
// once the last output was read, whether the outputs were read or skipped.
func TestOutputsDigest(t *testing.T) {
	for name, data := range allFiles(t) {
		t.Run(name, func(t *testing.T) {
			l := layoutOf(t, data)
			end := l.seps
			if len(l.diffs) > 0 {
				end = l.diffs[0]
			}
			want := sha256.Sum256(data[l.headerEnd:end])
			for _, skip := range []bool{false, true} {
				r, err := snapshot.NewReader(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := r.OutputsDigest(); ok && len(l.outputs) > 0 {
					t.Fatal("a digest before the outputs were read")
				}
				if skip {
					_, err = r.NextDiff()
				} else {
					for err == nil {
						_, err = r.NextOutput()
					}
				}
				if err != nil && err != io.EOF {
					t.Fatal(err)
				}
				if got, ok := r.OutputsDigest(); !ok || got != want {
					t.Errorf("skip %t: digest %x (%t), want %x", skip, got, ok, want)
				}
			}
		})
	}
}

// One changed byte of an output changes the digest.
func TestOutputsDigestChanges(t *testing.T) {
	data := snapshottest.Testdata(t, snapshottest.RealFile)
	o := layoutOf(t, data).outputs[5]
	digest := func(b []byte) [32]byte {
		r, err := snapshot.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.NextDiff(); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		d, _ := r.OutputsDigest()
		return d
	}
	if digest(data) == digest(patched(data, int(o+66), data[o+66]^1)) { // the booked index
		t.Fatal("the digest did not change with an output's byte")
	}
}

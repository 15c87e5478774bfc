package snapshot_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// createdMin is the smallest created output: its ID, block ID, booked index and time,
// length, and one byte.
const createdMin = 34 + 32 + 4 + 4 + 4 + 1

// A created count is refused at the count when its smallest outputs cannot fit in the
// bytes left of the diff, and passes the count when they can (the outputs themselves are
// then what is refused).
func TestCreatedCountAgainstTheBytesLeft(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	created := d + 8 + payloadLength(full, d)
	left := d + int64(diffLength(full, d)) - (created + 4)
	fits := left / createdMin
	_, err := snapshottest.ReadAll(patched(full, int(created), le32(uint32(fits+1))...))
	fe := wantFormatError(t, err, snapshot.ErrMalformed, created)
	if !strings.Contains(fe.Error(), "cannot fit in the") {
		t.Fatalf("%d outputs in %d bytes: %v; want the count refused", fits+1, left, err)
	}
	_, err = snapshottest.ReadAll(patched(full, int(created), le32(uint32(fits))...))
	var at *snapshot.FormatError
	if !errors.As(err, &at) || at.Offset == created {
		t.Fatalf("%d outputs in %d bytes: %v; want the count passed and an output refused", fits, left, err)
	}
}

// The count check is exact: with the diff's stated length leaving 79 bytes after the
// count, one created output of the smallest size fits; with 78, it does not.
func TestCreatedCountAtTheExactFit(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	created := d + 8 + payloadLength(full, d)
	withLeft := func(left int64) []byte {
		b := patched(full, int(created), le32(1)...)
		return patched(b, int(d), le32(uint32(created+4+left-d))...)
	}
	_, err := snapshottest.ReadAll(withLeft(createdMin - 1))
	if fe := wantFormatError(t, err, snapshot.ErrMalformed, created); !strings.Contains(fe.Error(), "cannot fit in the") {
		t.Fatalf("1 output in %d bytes: %v; want the count refused", createdMin-1, err)
	}
	_, err = snapshottest.ReadAll(withLeft(createdMin))
	var at *snapshot.FormatError
	if !errors.As(err, &at) || at.Offset == created {
		t.Fatalf("1 output in %d bytes: %v; want the count passed", createdMin, err)
	}
}

// The same for a consumed count: the smallest consumed output is a created one and its
// spending transaction ID, 111 bytes. Diff 0 is patched to create nothing, so its consumed
// count follows the created count.
func TestConsumedCountAtTheExactFit(t *testing.T) {
	const consumedMin = createdMin + 32
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	created := d + 8 + payloadLength(full, d)
	consumed := created + 4
	withLeft := func(left int64) []byte {
		b := patched(full, int(created), le32(0)...)
		b = patched(b, int(consumed), le32(1)...)
		return patched(b, int(d), le32(uint32(consumed+4+left-d))...)
	}
	_, err := snapshottest.ReadAll(withLeft(consumedMin - 1))
	if fe := wantFormatError(t, err, snapshot.ErrMalformed, consumed); !strings.Contains(fe.Error(), "cannot fit in the") {
		t.Fatalf("1 consumed output in %d bytes: %v; want the count refused", consumedMin-1, err)
	}
	_, err = snapshottest.ReadAll(withLeft(consumedMin))
	var at *snapshot.FormatError
	if !errors.As(err, &at) || at.Offset == consumed {
		t.Fatalf("1 consumed output in %d bytes: %v; want the count passed", consumedMin, err)
	}
}

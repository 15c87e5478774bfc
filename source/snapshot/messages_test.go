package snapshot_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// A refusal names the place by its offset and its part: the header at offset 0, diff 0,
// and what was found against what was due.
func TestRefusalMessagesNameThePlace(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	l := layoutOf(t, full)
	d, d1 := l.diffs[0], l.diffs[1]
	n := int64(diffLength(full, d))
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"version 1", patched(full, 0, 1),
			"snapshot: offset 0 (header version): unsupported file format version: version 1, this reader reads 2"},
		{"diff length one more", patched(full, int(d), le32(uint32(n+1))...),
			fmt.Sprintf("snapshot: offset %d (diff 0 length): malformed: %d bytes, the diff holds %d", d, n+1, n)},
		{"full diffs not from the ledger index", patched(patched(full, 6, le32(2)...), 46, le32(4)...),
			fmt.Sprintf("snapshot: offset %d (diff 0 milestone index): milestone diffs out of order: "+
				"milestone 3 where 4 was due (backwards from the ledger index 4)", d+12)},
		{"diff 1 not the ledger index - 1", patched(full, int(d1+12), le32(99)...),
			fmt.Sprintf("snapshot: offset %d (diff 1 milestone index): milestone diffs out of order: "+
				"milestone 99 where 2 was due (backwards from the ledger index 3)", d1+12)},
	} {
		if _, err := snapshottest.ReadAll(tt.data); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// A diff exactly at the one-diff limit is read.
func TestDiffAtTheLengthLimit(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	d := layoutOf(t, delta).diffs[0]
	r, err := snapshot.NewReader(bytes.NewReader(delta))
	if err != nil {
		t.Fatal(err)
	}
	r.SetLimits(snapshot.Limits{DiffLength: int64(diffLength(delta, d))})
	if _, err := r.NextDiff(); err != nil {
		t.Fatalf("a diff of exactly the limit: %v", err)
	}
}

// A length at its minimum passes the length check: a milestone payload of one byte is
// refused by the payload's decoding, at the payload, not at its length.
func TestLengthAtItsMinimumPasses(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	_, err := snapshottest.ReadAll(patched(full, int(d+4), le32(1)...))
	wantFormatError(t, err, snapshot.ErrMalformed, d+8)
}

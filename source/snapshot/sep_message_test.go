package snapshot_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// A cut inside a SEP names it alone, not as part of a diff.
func TestCutSEPNamedAlone(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	seps := layoutOf(t, delta).seps
	_, err := snapshottest.ReadAll(delta[:seps+5])
	if fe := wantFormatError(t, err, snapshot.ErrTruncated, seps+5); fe.Field != "SEP 0" {
		t.Fatalf("field %q, want SEP 0", fe.Field)
	}
}

package snapshotexport_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// realDelta is the real delta file that continues RealFile to 17340.
const realDelta = "snapshot_dev_delta_17340.bin"

// TestExportDeltaShimmer: the real full file (17338) bootstrapped and the real milestones
// 17339 and 17340 indexed; the delta exported from the full file's target to 17340 is the
// real delta file: the same header bytes but the SEP count, the same diffs onwards (as
// sets of outputs) at the same offsets;
// one to 17339 holds that milestone's diff alone. A full file of another target than the
// keyspace's milestone, or a target at or below the full file's, is refused.
func TestExportDeltaShimmer(t *testing.T) {
	st := exportStore(t, 1000)
	full := snapshottest.MustReadAll(t, snapshottest.Testdata(t, snapshottest.RealFile)).Full
	bootstrapFiles(t, st, bootstrap.Config{Full: snapshottest.TestdataPath(snapshottest.RealFile)})
	cms := nodeMilestones(t, st, 17339, 17340)
	writeMilestones(t, st, 17339, cms...)

	want := snapshottest.Testdata(t, realDelta)
	data, h := exportDelta(t, st, *full, nil)
	got, real := snapshottest.MustReadAll(t, data), snapshottest.MustReadAll(t, want)
	// The same header but the SEP count, the same diffs at the same offsets: the real
	// file lists a diff's outputs in the data's order, the export sorts them by output ID
	// as Hornet does (sortedOutputs, sortedSpents), so the diffs compare as sets; its 37
	// SEPs follow another rule than Hornet's (the data knows no block referenced after
	// 17340), which the export keeps (see solidEntryPoints).
	const sepCountAt = 54
	if h.SEPOffset != real.Delta.SEPOffset || !bytes.Equal(data[:sepCountAt], want[:sepCountAt]) {
		t.Errorf("the delta's header differs from the real file's from byte %d; SEPs at %d and %d",
			snapshottest.FirstDiff(data, want), h.SEPOffset, real.Delta.SEPOffset)
	}
	for _, file := range [][]byte{data, want} {
		if idx := hornetDeltaLayout(t, file); !slices.Equal(idx, []uint32{17339, 17340}) {
			t.Errorf("Hornet's layout: diffs of milestones %v, want 17339, 17340", idx)
		}
	}
	if *got.Delta != h {
		t.Errorf("header %+v, ExportDelta returned %+v", *got.Delta, h)
	}
	sameDiffs(t, got.Diffs, real.Diffs)
	blocks := append(blocksOf(cms[0]), blocksOf(cms[1])...)
	boot := snapshottest.MustReadAll(t, snapshottest.Testdata(t, snapshottest.RealFile)).SEPs
	if wantSEPs := sortedIDs(append(blocks, boot...)); !slices.Equal(got.SEPs, wantSEPs) {
		t.Errorf("%d SEPs, want the %d blocks referenced within below max depth + 5 of 17340 and the bootstrap's",
			len(got.SEPs), len(wantSEPs))
	}

	data, _ = exportDelta(t, st, *full, index(17339))
	c := snapshottest.MustReadAll(t, data)
	if c.Delta.TargetIndex != 17339 || c.Delta.TargetTimestamp != cms[0].Milestone.Timestamp ||
		!slices.Equal(snapshottest.DiffIndexes(c.Diffs), []uint32{17339}) {
		t.Errorf("delta to 17339: header %+v, diffs %v", *c.Delta, snapshottest.DiffIndexes(c.Diffs))
	}

	other := *full
	other.TargetMilestoneID[0] ^= 1
	if _, err := tryDelta(t, st, other, nil); !errors.Is(err, snapshotexport.ErrNotContinued) {
		t.Errorf("a full file of another milestone 17338: %v, want ErrNotContinued", err)
	}
	if _, err := tryDelta(t, st, *full, index(17338)); !errors.Is(err, snapshotexport.ErrTargetRange) {
		t.Errorf("a delta to the full file's target: %v, want ErrTargetRange", err)
	}
}

// exportDelta exports a delta continuing full to at (nil: the ledger index), which must
// succeed; it returns the file's bytes and the header ExportDelta returned.
func exportDelta(t *testing.T, st *store.Store, full snapshot.FullHeader, at *uint32) ([]byte, snapshot.DeltaHeader) {
	t.Helper()
	f := &snapshottest.MemFile{}
	h, err := snapshotexport.ExportDelta(ctxFor(t), st, full, f, snapshotexport.Config{At: at, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return f.Buf, h
}

// tryDelta exports a delta continuing full to at and returns what was written and the error.
func tryDelta(t *testing.T, st *store.Store, full snapshot.FullHeader, at *uint32) ([]byte, error) {
	t.Helper()
	f := &snapshottest.MemFile{}
	_, err := snapshotexport.ExportDelta(ctxFor(t), st, full, f, snapshotexport.Config{At: at, Log: quiet})
	return f.Buf, err
}

// hornetDeltaLayout walks a delta file the way Hornet reads one (its snapshot_file.go),
// independently of this project's Reader: the header (version 2, type 1, target index
// and timestamp, the full file's target milestone ID, the SEP file offset, the diffs
// and SEPs counts), then each diff by its length (which counts its own 4 bytes) and, in
// it, the milestone payload, the created outputs and the consumed ones (a receipt's
// treasury input is not expected here), which must fill the diff exactly; the diffs must
// end at the SEP file offset and the SEPs at the file's end. It returns the diffs'
// milestone indexes (read from each payload's essence).
func hornetDeltaLayout(t *testing.T, data []byte) []uint32 {
	t.Helper()
	le := binary.LittleEndian
	if len(data) < 56 || data[0] != 2 || data[1] != 1 {
		t.Fatalf("not a version 2 delta file: % x", data[:min(len(data), 2)])
	}
	sepAt, diffs, seps := int(le.Uint64(data[42:])), int(le.Uint32(data[50:])), int(le.Uint16(data[54:]))
	var indexes []uint32
	at := 56
	for range diffs {
		end := at + int(le.Uint32(data[at:]))
		p := at + 4
		payload := int(le.Uint32(data[p:]))
		// A milestone payload: type u32 (7), then the essence's index u32.
		indexes = append(indexes, le.Uint32(data[p+8:]))
		p += 4 + payload
		for _, spent := range []bool{false, true} {
			n := int(le.Uint32(data[p:]))
			p += 4
			for range n {
				p += 34 + 32 + 4 + 4
				p += 4 + int(le.Uint32(data[p:]))
				if spent {
					p += 32
				}
			}
		}
		if p != end {
			t.Fatalf("diff %d: its entries end at %d, its length says %d", len(indexes), p, end)
		}
		at = end
	}
	if at != sepAt || at+32*seps != len(data) {
		t.Fatalf("diffs end at %d, SEP file offset %d; %d SEPs end at %d of %d bytes", at, sepAt, seps, at+32*seps, len(data))
	}
	return indexes
}

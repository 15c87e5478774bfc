package archive_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// TestSourceServesAnyOrder: milestones asked out of order, and again, are the sim's;
// outside the archive they are not found.
func TestSourceServesAnyOrder(t *testing.T) {
	const from, to = 2, 9
	src, err := archive.Open([]string{writeFile(t, simArchive(t, from, to))}, simKeys())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx := context.Background()
	if net, _ := src.Network(ctx); net.Name != sim.NetworkName || net.Keys.Threshold == 0 {
		t.Fatalf("network %s with threshold %d", net.Name, net.Keys.Threshold)
	}
	if tip, _ := src.Latest(ctx); tip != to {
		t.Fatalf("latest %d, want %d", tip, to)
	}
	chainSrc := simChain(to)
	for _, i := range []uint32{5, 3, 4, 9, 2, 5, 8} {
		vm, err := src.Milestone(ctx, i)
		if err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		got := vm.Confirmed()
		want, _ := chainSrc.Confirmed(ctx, i)
		if got.MilestoneID != want.MilestoneID || len(got.Messages) != len(want.Messages) {
			t.Fatalf("milestone %d: got %s, want %s", i, got.MilestoneID, want.MilestoneID)
		}
	}
	for _, i := range []uint32{1, 10} {
		if _, err := src.Milestone(ctx, i); !errors.Is(err, source.ErrNotFound) {
			t.Fatalf("milestone %d: %v, want not found", i, err)
		}
	}
}

// TestAlteredRecordWithValidChecksumFailsVerification: checksums guard against damage,
// not forgery: a record altered and re-checksummed decodes, and verification refuses it.
func TestAlteredRecordWithValidChecksumFailsVerification(t *testing.T) {
	plain := gunzip(t, simArchive(t, 2, 3))
	off := recordOffsets(t, plain)[0]
	n := int64(binary.LittleEndian.Uint32(plain[off:]))
	body := plain[off+4 : off+4+n]
	// The payload's last byte is in its signatures: alter it.
	payloadEnd := 4 + 4 + int64(binary.LittleEndian.Uint32(body[4:]))
	body[payloadEnd-1] ^= 0x01
	crc := crc32.Update(crc32.Checksum(plain[off:off+4], crc32.MakeTable(crc32.Castagnoli)),
		crc32.MakeTable(crc32.Castagnoli), body)
	binary.LittleEndian.PutUint32(plain[off+4+n:], crc)
	r, err := archive.NewReader(bytes.NewReader(gzipped(plain)), "altered")
	if err != nil {
		t.Fatal(err)
	}
	cm, err := r.Next()
	if err != nil {
		t.Fatalf("the re-checksummed record was refused before verification: %v", err)
	}
	if _, err := chain.Verify(cm, sim.Network()); !errors.Is(err, chain.ErrMilestoneSignature) {
		t.Fatalf("verification of the altered milestone: %v, want a signature failure", err)
	}
}

// TestSourceAcrossArchives: milestones of two contiguous archives asked around their
// boundary, out of order and again, and far apart, are the sim's.
func TestSourceAcrossArchives(t *testing.T) {
	const from, mid, to = 2, 9, 30
	first, second := writeFile(t, simArchive(t, from, mid)), writeFile(t, simArchive(t, mid+1, to))
	src, err := archive.Open([]string{first, second}, simKeys())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx := context.Background()
	chainSrc := simChain(to)
	for _, i := range []uint32{3, 11, 8, 9, 10, 12, 2, 30, 21, 5, 29} {
		vm, err := src.Milestone(ctx, i)
		if err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		got := vm.Confirmed()
		if want, _ := chainSrc.Confirmed(ctx, i); got.MilestoneID != want.MilestoneID {
			t.Fatalf("milestone %d: got %s, want %s", i, got.MilestoneID, want.MilestoneID)
		}
	}
}

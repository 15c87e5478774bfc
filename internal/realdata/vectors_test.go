package realdata

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/blake2b"
)

// Test vectors of stardust-wire.md section 10 and the surrounding sections.

func TestVectorTransactionBlock(t *testing.T) {
	s := mustLoad(t)
	b := s.Milestones[17339].Cone[3]
	if [32]byte(mustHex(t, "0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d")) != b.ID ||
		len(b.Raw) != 376 || b.InclusionState != "included" {
		t.Fatalf("cone[3] of 17339: %x, %d bytes, %s", b.ID, len(b.Raw), b.InclusionState)
	}
	txID := blake2b.Sum256(b.Raw[134:368])
	if txID != [32]byte(mustHex(t, "d7fcbc49ec07037f48526f1f3ed464536c32ff1afdf545d5d61e88db029db759")) {
		t.Errorf("transaction ID %x", txID)
	}
	out := findOutput(s.Milestones[17339].Created, mustHex(t, "0xd7fcbc49ec07037f48526f1f3ed464536c32ff1afdf545d5d61e88db029db7590000"))
	want := mustHex(t, "030020d4b91500000000010000663e642e14320851d8b1c9a2cf0192d9eda9bf1f3087db6012b76ff00d2715a900")
	if out == nil || !bytes.Equal(out.Raw, want) || !bytes.Equal(b.Raw[218:264], want) || out.BlockID != b.ID {
		t.Errorf("first output: %+v", out)
	}
}

func TestVectorGenesisInput(t *testing.T) {
	s := mustLoad(t)
	id := mustHex(t, "0xe36d0100000000000000000000000000000000000000000000000000000000000000")
	var sp *Spent
	for i, c := range s.Milestones[17339].Consumed {
		if bytes.Equal(c.OutputID[:], id) {
			sp = &s.Milestones[17339].Consumed[i]
		}
	}
	want := mustHex(t, "030020d4b91500000000010000ee3acd5fec2ed600ba00fe16f976a7b87952c1223d2659eb8daa70ee3602804400")
	if sp == nil || !bytes.Equal(sp.Raw, want) || sp.Booked != 0 || sp.BlockID != [32]byte{} {
		t.Fatalf("genesis input: %+v", sp)
	}
}

func TestVectorMilestone(t *testing.T) {
	s := mustLoad(t)
	m := s.Milestones[17339]
	if m.MilestoneID != [32]byte(mustHex(t, "ef16bf8eae2756dce09732f6faa0ba906e5991e82133b68c9bff8c9486b9af59")) {
		t.Errorf("17339 ID %x", m.MilestoneID)
	}
	head := mustHex(t, "07000000"+"bb430000"+"6d833463"+"02")
	if len(m.Payload) != 1276 || len(m.Essence) != 301 || !bytes.HasPrefix(m.Payload, head) || len(m.Signatures) != 10 {
		t.Errorf("17339 payload %d bytes, essence %d, %d signatures", len(m.Payload), len(m.Essence), len(m.Signatures))
	}
	b := s.Milestones[17340].Cone[0]
	if b.ID != [32]byte(mustHex(t, "3e3042d1e032553eb5a3da6587c1c68e727335cc3ea4add0b5d0482ae1b9a469")) || len(b.Raw) != 1482 {
		t.Errorf("17340 cone[0]: %x, %d bytes", b.ID, len(b.Raw))
	}
	if !bytes.HasSuffix(b.Raw, make([]byte, 8)) {
		t.Error("milestone block nonce is not 0")
	}
}

// TestVectorPreviousMilestone: 17339's cone holds the block of 17338 (index 14), whose essence
// hashes to 17339's previous milestone ID.
func TestVectorPreviousMilestone(t *testing.T) {
	s := mustLoad(t)
	m := s.Milestones[17339]
	b := m.Cone[14]
	p, err := BlockPayload(b.Raw)
	if err != nil || PayloadType(p) != 7 || b.MilestoneIndex != 17338 {
		t.Fatalf("cone[14]: type %d, milestone index %d, %v", PayloadType(p), b.MilestoneIndex, err)
	}
	// essence: index 4, timestamp 4, version 1, previous 32, parents, two roots, metadata, options
	off := 4 + 4 + 4 + 1 + 32
	off += 1 + 32*int(p[off]) + 64
	off += 2 + int(p[off]) + int(p[off+1])<<8
	if p[off] != 0 {
		t.Fatalf("17338 has %d options", p[off])
	}
	if blake2b.Sum256(p[4:off+1]) != m.PreviousMilestoneID {
		t.Error("hash of 17338's essence is not 17339's previous milestone ID")
	}
}

// TestVectorChainIDs: a minted NFT carries a zero ID on the wire; its ID is the hash of its
// output ID. The native token of section 5 appears with its amount little-endian.
func TestVectorChainIDs(t *testing.T) {
	s := mustLoad(t)
	outID := mustHex(t, "0x9d9a3945ad73eba4cbbdaea724d8dacb7c45c4d7500a0d3f16ce40e31803921e0200")
	o := findOutput(s.Milestones[17339].Created, outID)
	if o == nil || o.Raw[0] != 6 || !bytes.Equal(o.Raw[10:42], make([]byte, 32)) {
		t.Fatalf("minted NFT output: %+v", o)
	}
	if blake2b.Sum256(outID) != [32]byte(mustHex(t, "803618b034d4c9069fc30618061bb14354fcb5ef9982fc15750287676cc4e32e")) {
		t.Error("NFT ID derivation")
	}
	token := mustHex(t, "0x0877a4951292b80c2ef0a847a7e730b7929266ca05e3e68c28355036cac314304f0100000000")
	amount := append(mustHex(t, "00e40b5402"), make([]byte, 27)...) // 10000000000 LE
	var found bool
	for _, m := range s.Milestones {
		for _, c := range m.Created {
			found = found || bytes.Contains(c.Raw, append(append([]byte{}, token...), amount...))
		}
	}
	if !found {
		t.Error("native token with amount 10000000000 not found")
	}
}

func findOutput(outs []Output, id []byte) *Output {
	for i := range outs {
		if bytes.Equal(outs[i].OutputID[:], id) {
			return &outs[i]
		}
	}
	return nil
}

package realdata

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"golang.org/x/crypto/blake2b"
)

func mustLoad(t testing.TB) *Set {
	t.Helper()
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	if len(s) > 1 && s[:2] == "0x" {
		s = s[2:]
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// txLayout is what the tests read of a transaction payload without decoding outputs: the
// outputs are located by matching the serialized created outputs at outputsAt.
type txLayout struct {
	inputs       [][34]byte
	commitment   [32]byte
	outputsCount int
	outputsAt    int
}

// parseTxHead reads a transaction payload up to its outputs.
func parseTxHead(p []byte) (txLayout, error) {
	var l txLayout
	if len(p) < 15 || PayloadType(p) != 6 || p[4] != 1 {
		return l, fmt.Errorf("not a transaction payload")
	}
	n := int(binary.LittleEndian.Uint16(p[13:]))
	off := 15
	for range n {
		if len(p) < off+35 || p[off] != 0 {
			return l, fmt.Errorf("bad input at %d", off)
		}
		var id [34]byte
		copy(id[:], p[off+1:off+35])
		l.inputs = append(l.inputs, id)
		off += 35
	}
	if len(p) < off+34 {
		return l, fmt.Errorf("short after inputs")
	}
	copy(l.commitment[:], p[off:off+32])
	l.outputsCount = int(binary.LittleEndian.Uint16(p[off+32:]))
	l.outputsAt = off + 34
	return l, nil
}

// parseTxTail reads from the end of the outputs: the essence payload and the unlocks, and checks
// that they fill the payload exactly.
func parseTxTail(p []byte, off, inputs int) error {
	if len(p) < off+4 {
		return fmt.Errorf("short at essence payload")
	}
	off += 4 + int(binary.LittleEndian.Uint32(p[off:]))
	if len(p) < off+2 || int(binary.LittleEndian.Uint16(p[off:])) != inputs {
		return fmt.Errorf("unlock count does not match %d inputs", inputs)
	}
	off += 2
	for range inputs {
		if len(p) <= off {
			return fmt.Errorf("short in unlocks")
		}
		switch p[off] {
		case 0:
			off += 1 + 1 + 32 + 64
		case 1, 2, 3:
			off += 3
		default:
			return fmt.Errorf("unlock type %d", p[off])
		}
	}
	if off != len(p) {
		return fmt.Errorf("unlocks end at %d, payload at %d", off, len(p))
	}
	return nil
}

// merkle is the TIP-4 Merkle tree hash.
func merkle(ids [][32]byte) [32]byte {
	switch len(ids) {
	case 0:
		return blake2b.Sum256(nil)
	case 1:
		return blake2b.Sum256(append([]byte{0}, ids[0][:]...))
	}
	k := 1
	for k*2 < len(ids) {
		k *= 2
	}
	l, r := merkle(ids[:k]), merkle(ids[k:])
	return blake2b.Sum256(append(append([]byte{1}, l[:]...), r[:]...))
}

// includedTxs returns the payloads of the included transaction blocks of a cone, with their IDs.
func includedTxs(t *testing.T, cone []Block) (payloads [][]byte, blockIDs [][32]byte) {
	t.Helper()
	for _, b := range cone {
		p, err := BlockPayload(b.Raw)
		if err != nil {
			t.Fatalf("block %x: %v", b.ID, err)
		}
		isTx := PayloadType(p) == 6
		if isTx != (b.InclusionState != "noTransaction") {
			t.Fatalf("block %x: payload type %d with state %s", b.ID, PayloadType(p), b.InclusionState)
		}
		if b.InclusionState == "included" {
			payloads, blockIDs = append(payloads, p), append(blockIDs, b.ID)
		}
	}
	return payloads, blockIDs
}

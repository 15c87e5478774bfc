package chain

import (
	"math/big"
	"strings"
	"testing"
)

// A length-prefixed field of exactly its maximum is read.
func TestBytes32AtItsMaximum(t *testing.T) {
	w := &writer{}
	w.bytes32([]byte{1, 2, 3, 4})
	r := &reader{buf: w.buf}
	if got := r.bytes32("f", 0, 4); r.err != nil || len(got) != 4 {
		t.Fatalf("bytes32 of 4 bytes with a maximum of 4: %x, %v", got, r.err)
	}
}

// A frame whose length passes the bytes left is refused before its reader runs.
func TestFramedLongerThanTheBytesLeft(t *testing.T) {
	r := &reader{buf: []byte{5, 0, 0, 0, 1, 2}}
	ran := false
	if r.framed("f", func(*reader) { ran = true }) || ran {
		t.Fatalf("a frame of 5 bytes with 2 left was read (ran %v)", ran)
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "truncated: length 5, 2 bytes left") {
		t.Fatalf("error %v, want the frame refused as truncated", r.err)
	}
}

// A value past 256 bits is written as its low 256 bits.
func TestUint256KeepsTheLow256Bits(t *testing.T) {
	v := new(big.Int).Lsh(big.NewInt(1), 256)
	v.Add(v, big.NewInt(5))
	w := &writer{}
	w.uint256(v)
	r := &reader{buf: w.buf}
	if got := r.uint256("v"); r.err != nil || got.Cmp(big.NewInt(5)) != 0 || len(w.buf) != 32 {
		t.Fatalf("2^256+5 written as %d bytes, read back as %v (%v), want 32 bytes and 5", len(w.buf), got, r.err)
	}
}

package chain

import (
	"encoding/binary"
	"math/big"
	"slices"
)

// writer appends little-endian fields.
type writer struct{ buf []byte }

func (w *writer) u8(v uint8)     { w.buf = append(w.buf, v) }
func (w *writer) u16(v uint16)   { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }
func (w *writer) u32(v uint32)   { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *writer) u64(v uint64)   { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *writer) bytes(b []byte) { w.buf = append(w.buf, b...) }
func (w *writer) bool(v bool) {
	if v {
		w.u8(1)
		return
	}
	w.u8(0)
}

func (w *writer) address(a Address) {
	w.u8(uint8(a.Kind))
	w.bytes(a.ID[:])
}

// uint256 writes 32 bytes little-endian. A value outside 0..2^256-1 is written as its
// low 256 bits of magnitude; the types that hold one never carry more.
func (w *writer) uint256(v *big.Int) {
	var le [32]byte
	if v != nil {
		be := v.Bytes()
		if len(be) > 32 {
			be = be[len(be)-32:]
		}
		for i, b := range be {
			le[len(be)-1-i] = b
		}
	}
	w.bytes(le[:])
}

// bytes8, bytes16 and bytes32 write a length prefix of that width, then the bytes. A
// slice longer than the prefix can say is cut (the types never hold one: the decoder
// enforces far smaller limits).
func (w *writer) bytes8(b []byte) {
	b = b[:min(len(b), 0xff)]
	w.u8(uint8(len(b)))
	w.bytes(b)
}

func (w *writer) bytes16(b []byte) {
	b = b[:min(len(b), 0xffff)]
	w.u16(uint16(len(b)))
	w.bytes(b)
}

func (w *writer) bytes32(b []byte) {
	w.u32(uint32(len(b)))
	w.bytes(b)
}

// framed writes what fill writes behind a uint32 byte length (0 when it writes nothing).
func (w *writer) framed(fill func(*writer)) {
	sub := &writer{}
	fill(sub)
	w.bytes32(sub.buf)
}

// reader consumes fields; the first failure sticks so decode functions can read
// straight through and check r.err once.
type reader struct {
	buf []byte
	off int
	err error
}

func (r *reader) fail(field, format string, args ...any) {
	if r.err == nil {
		r.err = invalid(field, format, args...)
	}
}

func (r *reader) take(field string, n int) []byte {
	if r.err != nil {
		return nil
	}
	if left := len(r.buf) - r.off; n > left || n < 0 {
		r.fail(field, "truncated: need %d bytes, %d left", n, left)
		return nil
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

// fixedWidth reads a size-byte field through decode; after a failure it yields 0.
func fixedWidth[T uint8 | uint16 | uint32 | uint64](r *reader, field string, size int, decode func([]byte) T) T {
	if b := r.take(field, size); b != nil {
		return decode(b)
	}
	return 0
}

func firstByte(b []byte) uint8 { return b[0] }

func (r *reader) u8(field string) uint8   { return fixedWidth(r, field, 1, firstByte) }
func (r *reader) u16(field string) uint16 { return fixedWidth(r, field, 2, binary.LittleEndian.Uint16) }
func (r *reader) u32(field string) uint32 { return fixedWidth(r, field, 4, binary.LittleEndian.Uint32) }
func (r *reader) u64(field string) uint64 { return fixedWidth(r, field, 8, binary.LittleEndian.Uint64) }

func (r *reader) bool(field string) bool {
	v := r.u8(field)
	if r.err == nil && v > 1 {
		r.fail(field, "boolean byte %d is neither 0 nor 1", v)
	}
	return v == 1
}

// fill copies len(dst) bytes into dst.
func (r *reader) fill(field string, dst []byte) { copy(dst, r.take(field, len(dst))) }

// copied returns a fresh copy so decoded values never alias the input.
func (r *reader) copied(field string, n int) []byte {
	b := r.take(field, n)
	if b == nil {
		return nil
	}
	return slices.Clone(b)
}

func (r *reader) address(field string) Address {
	a := Address{Kind: AddressKind(r.u8(joinField(field, "type")))}
	if r.err == nil && !a.Kind.valid() {
		r.fail(joinField(field, "type"), "unknown address type %d", uint8(a.Kind))
	}
	r.fill(field, a.ID[:])
	return a
}

// uint256 reads 32 bytes little-endian.
func (r *reader) uint256(field string) *big.Int {
	le := r.take(field, 32)
	if le == nil {
		return new(big.Int)
	}
	be := make([]byte, 32)
	for i, b := range le {
		be[31-i] = b
	}
	return new(big.Int).SetBytes(be)
}

// lengthed reads n bytes and checks minLen..maxLen.
func (r *reader) lengthed(field string, n, minLen, maxLen int) []byte {
	switch {
	case r.err != nil:
		return nil
	case n > maxLen:
		r.fail(field, "too long: %d bytes > %d", n, maxLen)
		return nil
	case n < minLen:
		r.fail(field, "too short: %d bytes < %d", n, minLen)
		return nil
	}
	return r.copied(field, n)
}

func (r *reader) bytes8(field string, minLen, maxLen int) []byte {
	return r.lengthed(field, int(r.u8(field)), minLen, maxLen)
}

func (r *reader) bytes16(field string, minLen, maxLen int) []byte {
	return r.lengthed(field, int(r.u16(field)), minLen, maxLen)
}

func (r *reader) bytes32(field string, minLen, maxLen int) []byte {
	n := r.u32(field)
	if r.err == nil && n > uint32(maxLen) {
		r.fail(field, "too long: %d bytes > %d", n, maxLen)
		return nil
	}
	return r.lengthed(field, int(n), minLen, maxLen)
}

// framed reads a uint32 byte length and hands a reader over exactly that region to
// read; it reports whether the region was present (length > 0). The region must be
// consumed exactly.
func (r *reader) framed(field string, read func(sub *reader)) bool {
	n := r.u32(field)
	if r.err != nil || n == 0 {
		return false
	}
	if left := len(r.buf) - r.off; uint64(n) > uint64(left) {
		r.fail(field, "truncated: length %d, %d bytes left", n, left)
		return false
	}
	sub := &reader{buf: r.take(field, int(n))}
	read(sub)
	r.adopt(sub, field)
	return true
}

// finish rejects unread bytes and returns the first error.
func (r *reader) finish(field string) error {
	if r.err == nil && r.off != len(r.buf) {
		r.fail(field, "trailing bytes: %d unexpected", len(r.buf)-r.off)
	}
	return r.err
}

// adopt finishes a sub-reader over a length-prefixed region and takes over its first
// error; the region must be consumed exactly.
func (r *reader) adopt(sub *reader, field string) {
	if r.err != nil {
		return
	}
	if sub.err == nil && sub.off != len(sub.buf) {
		sub.fail(field, "trailing bytes: %d unexpected", len(sub.buf)-sub.off)
	}
	r.err = sub.err
}

// ascending reports whether b sorts strictly after prev (bytewise), the rule for
// parents, native tokens, signatures and receipt funds.
func ascending(prev, b []byte) bool { return string(b) > string(prev) }

package chain

import (
	"encoding/binary"
	"math/big"
)

// blobVersion prefixes standalone blobs (outputs, unlocks, inputs) so the
// stored format can evolve; messages are versioned by ProtocolVersion.
const blobVersion uint8 = 1

// writer appends little-endian fields.
type writer struct{ buf []byte }

func (w *writer) u8(v uint8)     { w.buf = append(w.buf, v) }
func (w *writer) u16(v uint16)   { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }
func (w *writer) u32(v uint32)   { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *writer) u64(v uint64)   { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *writer) bytes(b []byte) { w.buf = append(w.buf, b...) }
func (w *writer) address(a Address) {
	w.u8(uint8(a.Kind))
	w.bytes(a.ID[:])
}

// uint256 writes a length byte and the minimal big-endian magnitude. A value
// wider than 256 bits is written as is so that decoding rejects it.
func (w *writer) uint256(v *big.Int) {
	if v == nil {
		w.u8(0)
		return
	}
	mag := v.Bytes()
	if len(mag) > 255 {
		mag = mag[:255]
	}
	w.u8(uint8(len(mag)))
	w.bytes(mag)
}

// reader consumes fields; the first failure sticks so decode functions can
// read straight through and check r.err once.
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
	if left := len(r.buf) - r.off; n > left {
		r.fail(field, "truncated: need %d bytes, %d left", n, left)
		return nil
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u8(field string) uint8 {
	if b := r.take(field, 1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16(field string) uint16 {
	if b := r.take(field, 2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32(field string) uint32 {
	if b := r.take(field, 4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64(field string) uint64 {
	if b := r.take(field, 8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// fill copies len(dst) bytes into dst.
func (r *reader) fill(field string, dst []byte) { copy(dst, r.take(field, len(dst))) }

// copied returns a fresh copy so decoded values never alias the input.
func (r *reader) copied(field string, n int) []byte {
	b := r.take(field, n)
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func (r *reader) address(field string) Address {
	a := Address{Kind: AddressKind(r.u8(field))}
	r.fill(field, a.ID[:])
	if r.err == nil && !a.Kind.valid() {
		r.fail(field, "unknown address kind %d", uint8(a.Kind))
	}
	return a
}

func (r *reader) uint256(field string) *big.Int {
	n := int(r.u8(field))
	if n > 32 {
		r.fail(field, "amount overflow: %d bytes exceed uint256", n)
		return new(big.Int)
	}
	mag := r.take(field, n)
	if n > 0 && mag != nil && mag[0] == 0 {
		r.fail(field, "non-minimal uint256: leading zero byte")
	}
	return new(big.Int).SetBytes(mag)
}

// blobHeader checks the version byte of a standalone blob.
func (r *reader) blobHeader() {
	if v := r.u8("version"); r.err == nil && v != blobVersion {
		r.fail("version", "unsupported blob version %d (want %d)", v, blobVersion)
	}
}

// finish rejects unread bytes and returns the first error.
func (r *reader) finish(field string) error {
	if r.err == nil && r.off != len(r.buf) {
		r.fail(field, "trailing bytes: %d unexpected", len(r.buf)-r.off)
	}
	return r.err
}

// shortBytes writes a uint16 length and the bytes (cut at 65535).
func (w *writer) shortBytes(b []byte) {
	if len(b) > 0xffff {
		b = b[:0xffff]
	}
	w.u16(uint16(len(b)))
	w.bytes(b)
}

// shortBytes reads what writer.shortBytes wrote, enforcing min..max length.
func (r *reader) shortBytes(field string, minLen, maxLen int) []byte {
	n := int(r.u16(field))
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

// adopt finishes a sub-reader over a length-prefixed region and takes over
// its first error; the region must be consumed exactly.
func (r *reader) adopt(sub *reader, field string) {
	if r.err != nil {
		return
	}
	if sub.err == nil && sub.off != len(sub.buf) {
		sub.fail(field, "trailing bytes: %d unexpected", len(sub.buf)-sub.off)
	}
	r.err = sub.err
}

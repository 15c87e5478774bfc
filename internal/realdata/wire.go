package realdata

import (
	"encoding/binary"
	"fmt"
)

// writer appends Stardust wire primitives (TIP-21): little-endian integers, length-prefixed byte
// strings. The first error sticks, so a serializer can write a whole object and check once.
type writer struct {
	buf []byte
	err error
}

func (w *writer) u8(v uint8)   { w.buf = append(w.buf, v) }
func (w *writer) u16(v uint16) { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }
func (w *writer) u32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *writer) u64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *writer) raw(b []byte) { w.buf = append(w.buf, b...) }

// fail records the first error.
func (w *writer) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf(format, args...)
	}
}

// setErr records err if it is the first error.
func (w *writer) setErr(err error) {
	if w.err == nil && err != nil {
		w.err = err
	}
}

// count8 writes a uint8 list count, failing beyond 255.
func (w *writer) count8(n int, what string) {
	if n > 0xff {
		w.fail("%s: %d items do not fit a uint8 count", what, n)
	}
	w.u8(uint8(n))
}

// bytes8 writes a uint8-length-prefixed byte string.
func (w *writer) bytes8(b []byte, what string) {
	w.count8(len(b), what)
	w.raw(b)
}

// bytes16 writes a uint16-length-prefixed byte string.
func (w *writer) bytes16(b []byte, what string) {
	if len(b) > 0xffff {
		w.fail("%s: %d bytes do not fit a uint16 length", what, len(b))
	}
	w.u16(uint16(len(b)))
	w.raw(b)
}

// fixedBytes writes b, which must be exactly n bytes (IDs, hashes).
func (w *writer) fixedBytes(b []byte, n int, what string) {
	if len(b) != n {
		w.fail("%s: %d bytes, want %d", what, len(b), n)
	}
	w.raw(b)
}

// uint256BE writes a 32-byte big-endian number (Chronicle's model) as the wire's little-endian.
func (w *writer) uint256BE(b []byte, what string) {
	if len(b) != 32 {
		w.fail("%s: uint256 of %d bytes, want 32", what, len(b))
		return
	}
	for i := 31; i >= 0; i-- {
		w.u8(b[i])
	}
}

package tip25

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// The readers below take a field of an object; the decoder-level ones a bare JSON value
// (list items). A missing required field has already failed in raw, so nil means "stop".

func (d *decoder) str(path string, v json.RawMessage) (string, bool) {
	var s string
	if v == nil || d.err != nil {
		return "", false
	}
	if json.Unmarshal(v, &s) != nil {
		d.fail(path, ErrMalformed, "want a string, got %s", short(v))
		return "", false
	}
	return s, true
}

// hexValue reads 0x hex; an optional value may be "" or "0x" (both empty: iota.js writes
// those where nodes omit the field).
func (d *decoder) hexValue(path string, v json.RawMessage, optional bool) []byte {
	s, ok := d.str(path, v)
	if !ok || (optional && (s == "" || s == "0x")) {
		return nil
	}
	digits, prefixed := strings.CutPrefix(s, "0x")
	b, err := hex.DecodeString(digits)
	if !prefixed || err != nil {
		d.fail(path, ErrMalformed, "want 0x + hex, got %s", short([]byte(strconv.Quote(s))))
		return nil
	}
	return b
}

// fixedValue reads 0x hex of exactly len(dst) bytes into dst.
func (d *decoder) fixedValue(path string, v json.RawMessage, dst []byte) {
	b := d.hexValue(path, v, false)
	if d.err == nil && len(b) != len(dst) {
		d.fail(path, ErrMalformed, "want %d bytes, got %d", len(dst), len(b))
	}
	copy(dst, b)
}

func (o *obj) str(key string, required bool) (string, bool) {
	return o.d.str(o.at(key), o.raw(key, required))
}

// bytes reads 0x hex; an optional field may also be absent.
func (o *obj) bytes(key string, required bool) []byte {
	return o.d.hexValue(o.at(key), o.raw(key, required), !required)
}

// nonEmpty reads required 0x hex of at least one byte.
func (o *obj) nonEmpty(key string) []byte {
	b := o.bytes(key, true)
	if o.d.err == nil && len(b) == 0 {
		o.d.fail(o.at(key), ErrMalformed, "must not be empty")
	}
	return b
}

func (o *obj) fixed(key string, dst []byte) { o.d.fixedValue(o.at(key), o.raw(key, true), dst) }

// uint reads a JSON number that must be a plain non-negative integer of the given bits.
func (o *obj) uint(key string, bits int) uint64 {
	v := o.raw(key, true)
	if v == nil {
		return 0
	}
	n, err := strconv.ParseUint(string(v), 10, bits)
	if err != nil {
		o.d.fail(o.at(key), ErrMalformed, "want an integer of %d bits, got %s", bits, short(v))
	}
	return n
}

func (o *obj) boolean(key string) bool {
	v := o.raw(key, true)
	var b bool
	if v != nil && json.Unmarshal(v, &b) != nil {
		o.d.fail(o.at(key), ErrMalformed, "want true or false, got %s", short(v))
	}
	return b
}

// u64 reads a uint64 sent as a decimal string (JSON numbers lose precision in JavaScript).
func (o *obj) u64(key string) uint64 {
	s, ok := o.str(key, true)
	if !ok {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		o.d.fail(o.at(key), ErrMalformed, "want a decimal uint64 string, got %q", s)
	}
	return n
}

// u256 reads a uint256 sent as 0x + big-endian hex (leading zeros tolerated).
func (o *obj) u256(key string) *big.Int {
	s, ok := o.str(key, true)
	if !ok {
		return new(big.Int)
	}
	digits, prefixed := strings.CutPrefix(s, "0x")
	v, valid := new(big.Int).SetString(digits, 16)
	switch {
	case !prefixed || !valid || strings.ContainsAny(digits, "+-_"):
		o.d.fail(o.at(key), ErrMalformed, "want 0x + hex digits, got %q", s)
	case v.BitLen() > 256:
		o.d.fail(o.at(key), ErrMalformed, "%s exceeds 256 bits", s)
	default:
		return v
	}
	return new(big.Int)
}

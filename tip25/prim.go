package tip25

import (
	"encoding/hex"
	"errors"
	"math/big"
	"strconv"
)

// Errors callers can test with errors.Is.
var (
	// ErrLegacyOutput: a Chrysalis output has no TIP-25 JSON form.
	ErrLegacyOutput = errors.New("tip25: legacy (Chrysalis) outputs have no TIP-25 form")
	// ErrUnknownType: a type code (payload, output, condition, ...) the format does not know.
	ErrUnknownType = errors.New("tip25: unknown type")
	// ErrMalformed: JSON that is not the TIP-25 shape (wrong kind of value, missing or
	// unknown field, bad hex).
	ErrMalformed = errors.New("tip25: malformed JSON")
)

// hexOf renders bytes as nodes do: 0x + lowercase hex ("0x" for none).
func hexOf(b []byte) string { return "0x" + hex.EncodeToString(b) }

// optHex is hexOf for optional parts, which nodes omit when empty ("" + omitempty).
func optHex(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return hexOf(b)
}

// u64 renders a uint64 as a decimal string: JSON numbers lose precision above 2^53 in
// JavaScript, so nodes send amounts, nonces and network IDs as strings.
func u64(v uint64) string { return strconv.FormatUint(v, 10) }

// u256 renders a uint256 as 0x + minimal big-endian hex, "0x0" for zero or nil (iota.js's
// HexHelper.fromBigInt256).
func u256(v *big.Int) string {
	if v == nil {
		return "0x0"
	}
	return "0x" + v.Text(16)
}

func ptr[T any](v T) *T { return &v }

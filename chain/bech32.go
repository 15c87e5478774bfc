package chain

import (
	"errors"
	"fmt"
	"strings"
)

// A compact BIP-173 Bech32 codec: IOTA addresses are Bech32 strings whose
// data part is the address kind byte followed by the 32-byte ID.

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// bech32MaxLength is BIP-173's limit on a whole string.
const bech32MaxLength = 90

var bech32Generator = [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}

func bech32Polymod(values []byte) uint32 {
	chk := uint32(1)
	for _, v := range values {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i, g := range bech32Generator {
			if (top>>i)&1 == 1 {
				chk ^= g
			}
		}
	}
	return chk
}

func bech32HRPExpand(hrp string) []byte {
	out := make([]byte, 0, 2*len(hrp)+1)
	for i := 0; i < len(hrp); i++ {
		out = append(out, hrp[i]>>5)
	}
	out = append(out, 0)
	for i := 0; i < len(hrp); i++ {
		out = append(out, hrp[i]&31)
	}
	return out
}

func bech32Checksum(hrp string, data []byte) []byte {
	values := append(bech32HRPExpand(hrp), data...)
	mod := bech32Polymod(append(values, 0, 0, 0, 0, 0, 0)) ^ 1
	sum := make([]byte, 6)
	for i := range sum {
		sum[i] = byte(mod>>(5*(5-i))) & 31
	}
	return sum
}

// bech32Encode encodes 8-bit payload bytes under a lowercase hrp.
func bech32Encode(hrp string, payload []byte) string {
	data := convertBits(payload, 8, 5, true)
	var sb strings.Builder
	sb.WriteString(hrp)
	sb.WriteByte('1')
	for _, d := range append(data, bech32Checksum(hrp, data)...) {
		sb.WriteByte(bech32Charset[d])
	}
	return sb.String()
}

// bech32Decode returns the hrp and the 8-bit payload of a Bech32 string.
func bech32Decode(s string) (string, []byte, error) {
	if len(s) > bech32MaxLength {
		return "", nil, fmt.Errorf("too long: %d characters > %d", len(s), bech32MaxLength)
	}
	if strings.ToLower(s) != s && strings.ToUpper(s) != s {
		return "", nil, errors.New("mixed case")
	}
	s = strings.ToLower(s)
	sep := strings.LastIndexByte(s, '1')
	if sep < 1 || sep+7 > len(s) {
		return "", nil, errors.New("missing separator, empty hrp or short checksum")
	}
	hrp := s[:sep]
	for i := 0; i < len(hrp); i++ {
		if hrp[i] < 33 || hrp[i] > 126 {
			return "", nil, fmt.Errorf("invalid hrp character %q", hrp[i])
		}
	}
	data, err := bech32Values(s[sep+1:])
	if err != nil {
		return "", nil, err
	}
	if bech32Polymod(append(bech32HRPExpand(hrp), data...)) != 1 {
		return "", nil, errors.New("checksum mismatch")
	}
	payload, err := strictConvertBits(data[:len(data)-6])
	return hrp, payload, err
}

func bech32Values(s string) ([]byte, error) {
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(bech32Charset, s[i])
		if v < 0 {
			return nil, fmt.Errorf("invalid data character %q", s[i])
		}
		out[i] = byte(v)
	}
	return out, nil
}

// convertBits regroups bits; with pad it zero-fills the last group.
func convertBits(data []byte, from, to uint, pad bool) []byte {
	var acc, bits uint
	out := make([]byte, 0, len(data)*int(from)/int(to)+1)
	maxv := uint(1)<<to - 1
	for _, v := range data {
		acc = acc<<from | uint(v)
		bits += from
		for bits >= to {
			bits -= to
			out = append(out, byte(acc>>bits&maxv))
		}
	}
	if pad && bits > 0 {
		out = append(out, byte(acc<<(to-bits)&maxv))
	}
	return out
}

// strictConvertBits turns 5-bit groups back into bytes, rejecting padding
// that is too long or not zero (BIP-173 requires both).
func strictConvertBits(data []byte) ([]byte, error) {
	out := convertBits(data, 5, 8, false)
	padBits := uint(len(data)*5) % 8
	if padBits >= 5 {
		return nil, errors.New("invalid padding length")
	}
	if len(data) > 0 && data[len(data)-1]&(1<<padBits-1) != 0 {
		return nil, errors.New("non-zero padding")
	}
	return out, nil
}

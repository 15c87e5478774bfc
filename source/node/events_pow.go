package node

import (
	"math"

	"golang.org/x/crypto/blake2b"
)

// Stardust's proof-of-work score of a block (iota.go's pow.Score): the trailing zero
// trits of Curl-P-81 over the b1t6 trits of BLAKE2b-256(block without its nonce) and of
// the nonce's 8 bytes, as 3^zeros / the block's length. Nodes refuse blocks below the
// network's minimum score, so an event block below it was never gossiped.
const (
	curlHashTrits  = 243
	curlStateTrits = 3 * curlHashTrits
	curlRounds     = 81
	nonceBytes     = 8
)

// powScore is the block's PoW score (0 for a block too short to carry a nonce).
func powScore(raw []byte) float64 {
	if len(raw) < nonceBytes {
		return 0
	}
	body := len(raw) - nonceBytes
	digest := blake2b.Sum256(raw[:body])
	var trits [curlHashTrits]int8
	n := b1t6(trits[:], digest[:])
	b1t6(trits[n:], raw[body:])
	return math.Pow(3, float64(curlTrailingZeros(trits))) / float64(len(raw))
}

// b1t6 writes each byte of src as 6 balanced trits (two trytes) into dst.
func b1t6(dst []int8, src []byte) int {
	for i, b := range src {
		v := int(int8(b)) + 13*27 + 13
		putTryte(dst[6*i:], int8(v%27-13))
		putTryte(dst[6*i+3:], int8(v/27-13))
	}
	return 6 * len(src)
}

// putTryte writes a tryte's value (-13..13) as three balanced trits, least first.
func putTryte(dst []int8, v int8) {
	for i := range 3 {
		t := ((v%3)+3+1)%3 - 1 // -1, 0 or 1, congruent to v mod 3
		dst[i] = t
		v = (v - t) / 3
	}
}

var curlTruth = [11]int8{1, 0, -1, 2, 1, -1, 0, 2, -1, 1, 0}

// curlTrailingZeros absorbs one block of trits into a fresh Curl-P-81 sponge and counts
// the trailing zero trits of the hash it squeezes.
func curlTrailingZeros(in [curlHashTrits]int8) int {
	var state, scratch [curlStateTrits]int8
	copy(state[:], in[:])
	for range curlRounds {
		scratch = state
		idx := 0
		for i := range state {
			a := scratch[idx]
			if idx < 365 {
				idx += 364
			} else {
				idx -= 365
			}
			state[i] = curlTruth[a+scratch[idx]<<2+5]
		}
	}
	z := 0
	for i := curlHashTrits - 1; i >= 0 && state[i] == 0; i-- {
		z++
	}
	return z
}

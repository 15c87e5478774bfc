package bootstrap

import (
	"hash/maphash"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// idFilter is a Bloom filter of output IDs: the duplicate check keeps about two bytes per
// output instead of the IDs themselves (gigabytes on a mainnet snapshot). An ID it may
// have seen before becomes a candidate, which a second pass counts exactly.
type idFilter struct {
	bits   []uint64
	m      uint64 // number of bits
	s1, s2 maphash.Seed
}

// filterBitsPerID and filterHashes give about 0.05% false candidates.
const (
	filterBitsPerID = 16
	filterHashes    = 11
	filterMaxBits   = 1 << 33 // 1 GiB: more than any real ledger needs
)

func newIDFilter(n uint64) *idFilter {
	m := min(max(n*filterBitsPerID, 1024), filterMaxBits)
	return &idFilter{bits: make([]uint64, (m+63)/64), m: m, s1: maphash.MakeSeed(), s2: maphash.MakeSeed()}
}

// addSeen adds id and reports whether it may have been added before.
func (f *idFilter) addSeen(id chain.OutputID) bool {
	// Hashed, not taken from the ID's bytes: genesis outputs share made-up transaction IDs.
	h1, h2 := maphash.Bytes(f.s1, id[:]), maphash.Bytes(f.s2, id[:])|1
	seen := true
	for i := range uint64(filterHashes) {
		bit := (h1 + i*h2) % f.m
		word, mask := bit/64, uint64(1)<<(bit%64)
		if f.bits[word]&mask == 0 {
			seen = false
			f.bits[word] |= mask
		}
	}
	return seen
}

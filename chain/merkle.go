package chain

import (
	"math/bits"

	"golang.org/x/crypto/blake2b"
)

// Merkle tree hashing of TIP-4: leaves are prefixed 0x00, inner nodes 0x01, and a list
// of n > 1 items splits at the largest power of two below n.
const (
	merkleLeaf = 0x00
	merkleNode = 0x01
)

// MerkleRoot is the TIP-4 Merkle tree hash of the IDs: the inclusion Merkle root of a
// milestone over its cone in white-flag order, the applied root over the blocks of its
// included transactions.
func MerkleRoot(ids []MessageID) [32]byte {
	if len(ids) == 0 {
		return blake2b.Sum256(nil)
	}
	return merkleHash(ids)
}

func merkleHash(ids []MessageID) [32]byte {
	if len(ids) == 1 {
		return merkleLeafHash(ids[0])
	}
	k := merkleSplit(len(ids))
	return merkleNodeHash(merkleHash(ids[:k]), merkleHash(ids[k:]))
}

// merkleSplit is where a list of n > 1 items splits: the largest power of two below n.
func merkleSplit(n int) int { return 1 << (bits.Len(uint(n-1)) - 1) }

func merkleLeafHash(id MessageID) [32]byte {
	return blake2b.Sum256(append([]byte{merkleLeaf}, id[:]...))
}

func merkleNodeHash(left, right [32]byte) [32]byte {
	buf := make([]byte, 0, 65)
	buf = append(append(append(buf, merkleNode), left[:]...), right[:]...)
	return blake2b.Sum256(buf)
}

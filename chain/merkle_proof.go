package chain

import (
	"errors"
	"fmt"
)

// ErrNotInTree: the ID is not among the tree's IDs, so it has no audit path.
var ErrNotInTree = errors.New("chain: the ID is not a leaf of the Merkle tree")

// MerklePath is the audit path of one ID in a TIP-4 Merkle tree, in inx-chronicle's
// form: each level holds the subtree with the ID (a path, or the ID itself) and the
// hash of its sibling subtree. Right is nil only for a tree of one ID, where Left is
// that ID.
type MerklePath struct {
	Left  MerkleElem
	Right *MerkleElem
}

// MerkleElem is one side of a path level: exactly one of Path (the subtree holding the
// ID), Hash (a sibling subtree's hash) and Value (the ID, a leaf) is set.
type MerkleElem struct {
	Path  *MerklePath
	Hash  *[32]byte
	Value *MessageID
}

// MerkleAuditPath is the audit path of id in the tree of ids (the order of the tree:
// white-flag order for a milestone's roots); ErrNotInTree when id is not in ids.
func MerkleAuditPath(ids []MessageID, id MessageID) (*MerklePath, error) {
	for i := range ids {
		if ids[i] == id {
			return auditPath(ids, i), nil
		}
	}
	return nil, fmt.Errorf("%w: %s among %d IDs", ErrNotInTree, id, len(ids))
}

// auditPath splits ids as MerkleRoot does, descends into the side holding index and
// hashes the other side whole.
func auditPath(ids []MessageID, index int) *MerklePath {
	if len(ids) == 1 {
		return &MerklePath{Left: valueElem(ids[0])}
	}
	k := merkleSplit(len(ids))
	if index < k {
		return &MerklePath{Left: withValue(ids[:k], index), Right: hashElem(merkleHash(ids[k:]))}
	}
	left := hashElem(merkleHash(ids[:k]))
	return &MerklePath{Left: *left, Right: ptr(withValue(ids[k:], index-k))}
}

func withValue(ids []MessageID, index int) MerkleElem {
	if len(ids) == 1 {
		return valueElem(ids[0])
	}
	return MerkleElem{Path: auditPath(ids, index)}
}

func valueElem(id MessageID) MerkleElem { return MerkleElem{Value: &id} }

func hashElem(h [32]byte) *MerkleElem { return &MerkleElem{Hash: &h} }

func ptr(e MerkleElem) *MerkleElem { return &e }

// ErrBadMerklePath: a path level or element breaks the form MerklePath describes.
var ErrBadMerklePath = errors.New("chain: malformed Merkle audit path")

// Check says whether p has MerklePath's form at every level.
func (p *MerklePath) Check() error {
	if p.Right == nil {
		if p.Left.Value == nil {
			return fmt.Errorf("%w: a level without a right side must hold the ID alone", ErrBadMerklePath)
		}
		return nil
	}
	if err := p.Left.check(); err != nil {
		return err
	}
	return p.Right.check()
}

func (e *MerkleElem) check() error {
	n := 0
	for _, set := range []bool{e.Path != nil, e.Hash != nil, e.Value != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("%w: an element holds %d of path, hash and value, want one", ErrBadMerklePath, n)
	}
	if e.Path != nil {
		return e.Path.Check()
	}
	return nil
}

// Root is the Merkle root the path hashes to (p must pass Check).
func (p *MerklePath) Root() [32]byte {
	if p.Right == nil {
		return p.Left.hash()
	}
	return merkleNodeHash(p.Left.hash(), p.Right.hash())
}

func (e *MerkleElem) hash() [32]byte {
	switch {
	case e.Path != nil:
		return e.Path.Root()
	case e.Hash != nil:
		return *e.Hash
	}
	return merkleLeafHash(*e.Value)
}

// Contains says whether id is a leaf the path names (p must pass Check).
func (p *MerklePath) Contains(id MessageID) bool {
	return p.Left.contains(id) || p.Right != nil && p.Right.contains(id)
}

func (e *MerkleElem) contains(id MessageID) bool {
	switch {
	case e.Path != nil:
		return e.Path.Contains(id)
	case e.Value != nil:
		return *e.Value == id
	}
	return false
}

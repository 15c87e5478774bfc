package rest

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// MerkleJSON is inx-chronicle's JSON of a Merkle audit path and of its elements, one
// type for both: a path is {"l": elem, "r": elem} ("r" absent only in a tree of one
// block); an element is a path, {"h": sibling subtree hash} or {"value": block ID}.
type MerkleJSON struct {
	L     *MerkleJSON `json:"l,omitempty"`
	R     *MerkleJSON `json:"r,omitempty"`
	H     string      `json:"h,omitempty"`
	Value string      `json:"value,omitempty"`
}

func merklePathJSON(p *chain.MerklePath) *MerkleJSON {
	j := &MerkleJSON{L: merkleElemJSON(&p.Left)}
	if p.Right != nil {
		j.R = merkleElemJSON(p.Right)
	}
	return j
}

func merkleElemJSON(e *chain.MerkleElem) *MerkleJSON {
	switch {
	case e.Path != nil:
		return merklePathJSON(e.Path)
	case e.Hash != nil:
		return &MerkleJSON{H: "0x" + hex.EncodeToString(e.Hash[:])}
	}
	return &MerkleJSON{Value: e.Value.String()}
}

// Path reads j as a path level; the result still needs chain's Check.
func (j *MerkleJSON) Path() (*chain.MerklePath, error) {
	if j.L == nil || j.H != "" || j.Value != "" {
		return nil, fmt.Errorf("a path level is {\"l\", \"r\"}")
	}
	left, err := j.L.elem()
	if err != nil {
		return nil, err
	}
	p := &chain.MerklePath{Left: left}
	if j.R != nil {
		right, err := j.R.elem()
		if err != nil {
			return nil, err
		}
		p.Right = &right
	}
	return p, nil
}

func (j *MerkleJSON) elem() (chain.MerkleElem, error) {
	switch {
	case j.L != nil || j.R != nil:
		p, err := j.Path()
		return chain.MerkleElem{Path: p}, err
	case j.H != "" && j.Value == "":
		h, err := hash32(j.H)
		return chain.MerkleElem{Hash: &h}, err
	case j.Value != "" && j.H == "":
		id, err := chain.ParseMessageID(j.Value)
		return chain.MerkleElem{Value: &id}, err
	}
	return chain.MerkleElem{}, fmt.Errorf("an element is a path, {\"h\"} or {\"value\"}")
}

// hash32 reads a 0x-prefixed hex hash of 32 bytes.
func hash32(s string) ([32]byte, error) {
	var h [32]byte
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || !strings.HasPrefix(s, "0x") || len(b) != len(h) {
		return h, fmt.Errorf("hash %q is not 0x and 32 bytes of hex", s)
	}
	copy(h[:], b)
	return h, nil
}

package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// AddressJSON is an address: {type 0, pubKeyHash} / {type 8, aliasId} / {type 16, nftId}.
type AddressJSON struct {
	Type       uint8  `json:"type"`
	PubKeyHash string `json:"pubKeyHash,omitempty"`
	AliasID    string `json:"aliasId,omitempty"`
	NFTID      string `json:"nftId,omitempty"`
}

// Address returns the JSON form of an address; an unknown kind is an error.
func Address(a chain.Address) (*AddressJSON, error) {
	j := &AddressJSON{Type: uint8(a.Kind)}
	id := hexOf(a.ID[:])
	switch a.Kind {
	case chain.AddressEd25519:
		j.PubKeyHash = id
	case chain.AddressAlias:
		j.AliasID = id
	case chain.AddressNFT:
		j.NFTID = id
	default:
		return nil, fmt.Errorf("%w: address type %d", ErrUnknownType, uint8(a.Kind))
	}
	return j, nil
}

// addressKey is the JSON key holding the 32 ID bytes of each address kind.
var addressKey = map[chain.AddressKind]string{
	chain.AddressEd25519: "pubKeyHash",
	chain.AddressAlias:   "aliasId",
	chain.AddressNFT:     "nftId",
}

// addrs converts several addresses, keeping the first error; nil stays nil.
type addrs struct{ err error }

func (c *addrs) of(a *chain.Address) *AddressJSON {
	if a == nil || c.err != nil {
		return nil
	}
	j, err := Address(*a)
	c.err = err
	return j
}

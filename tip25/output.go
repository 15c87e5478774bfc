package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// OutputJSON is a basic (3), alias (4), foundry (5) or NFT (6) output. The fields of the
// other kinds stay empty and are omitted; the field order is iota.go's.
type OutputJSON struct {
	Type              uint8                 `json:"type"`
	Amount            string                `json:"amount"`
	NativeTokens      []NativeTokenJSON     `json:"nativeTokens,omitempty"`
	AliasID           string                `json:"aliasId,omitempty"`
	StateIndex        *uint32               `json:"stateIndex,omitempty"`
	StateMetadata     string                `json:"stateMetadata,omitempty"`
	FoundryCounter    *uint32               `json:"foundryCounter,omitempty"`
	SerialNumber      *uint32               `json:"serialNumber,omitempty"`
	TokenScheme       *TokenSchemeJSON      `json:"tokenScheme,omitempty"`
	NFTID             string                `json:"nftId,omitempty"`
	UnlockConditions  []UnlockConditionJSON `json:"unlockConditions"`
	Features          []FeatureJSON         `json:"features,omitempty"`
	ImmutableFeatures []FeatureJSON         `json:"immutableFeatures,omitempty"`
}

// NativeTokenJSON is a native token: its ID and a uint256 amount (0x hex; iota.js reads it
// with HexHelper.toBigInt256).
type NativeTokenJSON struct {
	ID     string `json:"id"`
	Amount string `json:"amount"`
}

// TokenSchemeJSON is the simple token scheme (type 0). It is one object with
// "maximumSupply", as iota.go serves and iota.js reads it; the TIP-25 yaml's array with
// "maxSupply" is not what nodes send.
type TokenSchemeJSON struct {
	Type          uint8  `json:"type"`
	MintedTokens  string `json:"mintedTokens"`
	MeltedTokens  string `json:"meltedTokens"`
	MaximumSupply string `json:"maximumSupply"`
}

// Output returns the TIP-25 form of a Stardust output. Legacy outputs give
// ErrLegacyOutput; unknown kinds ErrUnknownType.
func Output(o chain.Output) (*OutputJSON, error) {
	switch o.Kind {
	case chain.OutputLegacy:
		return nil, ErrLegacyOutput
	case chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT:
	default:
		return nil, fmt.Errorf("%w: output type %d", ErrUnknownType, uint8(o.Kind))
	}
	j := &OutputJSON{Type: uint8(o.Kind), Amount: u64(o.Amount), NativeTokens: nativeTokens(o.NativeTokens)}
	kindFields(j, &o)
	var c addrs
	j.UnlockConditions = conditions(&c, &o)
	j.Features = features(&c, &o)
	if o.Kind != chain.OutputBasic {
		j.ImmutableFeatures = immutableFeatures(&c, &o)
	}
	if c.err != nil {
		return nil, c.err
	}
	return j, nil
}

// kindFields fills what only one output kind has, in the binary layout's order.
func kindFields(j *OutputJSON, o *chain.Output) {
	switch o.Kind {
	case chain.OutputAlias:
		j.AliasID = hexOf(o.AliasID[:])
		j.StateIndex = ptr(o.StateIndex)
		j.StateMetadata = optHex(o.StateMetadata)
		j.FoundryCounter = ptr(o.FoundryCounter)
	case chain.OutputFoundry:
		j.SerialNumber = ptr(o.SerialNumber)
		j.TokenScheme = &TokenSchemeJSON{Type: chain.TokenSchemeSimple, MintedTokens: u256(o.TokenScheme.Minted),
			MeltedTokens: u256(o.TokenScheme.Melted), MaximumSupply: u256(o.TokenScheme.MaxSupply)}
	case chain.OutputNFT:
		j.NFTID = hexOf(o.NFTID[:])
	}
}

func nativeTokens(ts []chain.NativeToken) []NativeTokenJSON {
	if len(ts) == 0 {
		return nil
	}
	out := make([]NativeTokenJSON, len(ts))
	for i, t := range ts {
		out[i] = NativeTokenJSON{ID: hexOf(t.ID[:]), Amount: u256(t.Amount)}
	}
	return out
}

package rest

import "github.com/stardust-indexer/stardust-indexer/chain"

// The path parameters several surfaces name alike (rest/params_typed.go).

type BlockIDParams struct {
	BlockID string `path:"blockId" kind:"messageID" doc:"block ID"`
}

type TransactionIDParams struct {
	TransactionID string `path:"transactionId" kind:"transactionID" doc:"transaction ID"`
}

type MilestoneIDParams struct {
	MilestoneID string `path:"milestoneId" kind:"milestoneID" doc:"milestone ID"`
}

type MilestoneIndexParams struct {
	Index uint32 `path:"index" kind:"index" doc:"milestone index"`
}

type AddressParams struct {
	Address chain.LocalAddress `path:"address" kind:"address" doc:"the address (bech32, any HRP, or 0x-hex)"`
}

type OutputIDParams struct {
	OutputID chain.OutputID `path:"outputId" kind:"outputID" doc:"output ID"`
}

// A chain's ID: an alias's, a foundry's or an NFT's (TIP-26's look-ups, the versions the
// schema's read routes list).
type (
	AliasIDParams struct {
		ID string `path:"aliasId" kind:"aliasID" doc:"alias ID"`
	}
	FoundryIDParams struct {
		ID string `path:"foundryId" kind:"foundryID" doc:"foundry ID"`
	}
	NFTIDParams struct {
		ID string `path:"nftId" kind:"nftID" doc:"NFT ID"`
	}
)

func (p *AliasIDParams) ChainID() string   { return p.ID }
func (p *FoundryIDParams) ChainID() string { return p.ID }
func (p *NFTIDParams) ChainID() string     { return p.ID }

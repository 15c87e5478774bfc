package api

// The path parameters several surfaces name alike (params_typed.go).

type blockIDParams struct {
	BlockID string `path:"blockId" kind:"messageID" doc:"block ID"`
}

type transactionIDParams struct {
	TransactionID string `path:"transactionId" kind:"transactionID" doc:"transaction ID"`
}

type milestoneIDParams struct {
	MilestoneID string `path:"milestoneId" kind:"milestoneID" doc:"milestone ID"`
}

type milestoneIndexParams struct {
	Index uint32 `path:"index" kind:"index" doc:"milestone index"`
}

type addressParams struct {
	Address string `path:"address" kind:"address" doc:"the address (bech32, any HRP, or 0x-hex)"`
}

type outputIDParams struct {
	OutputID string `path:"outputId" kind:"outputID" doc:"output ID"`
}

// A chain's ID: an alias's, a foundry's or an NFT's (TIP-26's look-ups, the permanode's
// versions).
type (
	aliasIDParams struct {
		ID string `path:"aliasId" kind:"aliasID" doc:"alias ID"`
	}
	foundryIDParams struct {
		ID string `path:"foundryId" kind:"foundryID" doc:"foundry ID"`
	}
	nftIDParams struct {
		ID string `path:"nftId" kind:"nftID" doc:"NFT ID"`
	}
)

func (p *aliasIDParams) chainID() string   { return p.ID }
func (p *foundryIDParams) chainID() string { return p.ID }
func (p *nftIDParams) chainID() string     { return p.ID }

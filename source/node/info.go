package node

import (
	"context"
	"fmt"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// infoJSON is the part of GET /info the indexer reads.
type infoJSON struct {
	Status struct {
		ConfirmedMilestone struct {
			Index uint32 `json:"index"`
		} `json:"confirmedMilestone"`
		PruningIndex uint32 `json:"pruningIndex"`
	} `json:"status"`
	Protocol struct {
		Version       uint8  `json:"version"`
		NetworkName   string `json:"networkName"`
		Bech32HRP     string `json:"bech32Hrp"`
		MinPoWScore   uint32 `json:"minPowScore"`
		BelowMaxDepth uint8  `json:"belowMaxDepth"`
		RentStructure struct {
			VByteCost       uint32 `json:"vByteCost"`
			VByteFactorData uint8  `json:"vByteFactorData"`
			VByteFactorKey  uint8  `json:"vByteFactorKey"`
		} `json:"rentStructure"`
		TokenSupply string `json:"tokenSupply"`
	} `json:"protocol"`
	BaseToken chain.BaseToken `json:"baseToken"`
}

func (s *member) info(ctx context.Context) (*infoJSON, error) {
	var info infoJSON
	if err := s.c.getJSON(ctx, "/info", &info); err != nil {
		return nil, err
	}
	return &info, nil
}

// describe is the network an /info answer names, without its keys.
func describe(info *infoJSON) (chain.Network, error) {
	p := info.Protocol
	supply, err := strconv.ParseUint(p.TokenSupply, 10, 64)
	if err != nil || p.NetworkName == "" || p.Bech32HRP == "" {
		return chain.Network{}, source.Refuse(fmt.Errorf("GET %s/info: protocol without network name, HRP or token supply", apiBase))
	}
	return chain.Network{Name: p.NetworkName, HRP: p.Bech32HRP, BaseToken: baseToken(info.BaseToken, p.NetworkName),
		Params: chain.ProtocolParameters{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP,
			MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: supply,
			RentStructure: chain.RentStructure{VByteCost: p.RentStructure.VByteCost,
				VByteFactorData: p.RentStructure.VByteFactorData, VByteFactorKey: p.RentStructure.VByteFactorKey}}}, nil
}

// baseToken is the node's base token, or the built-in one of the network when the node
// names none.
func baseToken(fromNode chain.BaseToken, network string) chain.BaseToken {
	if fromNode == (chain.BaseToken{}) && network == chain.Shimmer().Name {
		return chain.Shimmer().BaseToken
	}
	return fromNode
}

// keysFor are the configured milestone keys, or the built-in ones of the named network.
func (s *member) keysFor(network string) (chain.MilestoneKeys, error) {
	if s.cfg.Keys != nil {
		return *s.cfg.Keys, nil
	}
	if keys, ok := chain.KnownKeys(network); ok {
		return keys, nil
	}
	return chain.MilestoneKeys{}, source.Refuse(fmt.Errorf("network %q has no built-in milestone keys: "+
		"give the node's protocol configuration (milestonePublicKeyCount, publicKeyRanges)", network))
}

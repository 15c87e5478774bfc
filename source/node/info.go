package node

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// infoJSON is the part of GET /info the indexer reads, in tip25's forms.
type infoJSON struct {
	Status    tip25.StatusJSON   `json:"status"`
	Protocol  tip25.ProtocolJSON `json:"protocol"`
	BaseToken tip25.BaseToken    `json:"baseToken"`
}

// info reads the node's /info within InfoTimeout, retries included: a status poll asks
// every node at once and waits for all, so a node that hangs must not hold it up. A node
// that does not answer in time is unavailable.
func (s *member) info(ctx context.Context) (*infoJSON, error) {
	within, cancel := context.WithTimeout(ctx, s.cfg.InfoTimeout)
	defer cancel()
	var info infoJSON
	err := s.c.getJSON(within, "/info", &info)
	if err != nil && ctx.Err() == nil && within.Err() != nil {
		return nil, fmt.Errorf("GET %s/info: %w: no answer within %s", apiBase, errUnavailable, s.cfg.InfoTimeout)
	}
	if err != nil {
		return nil, err
	}
	return &info, nil
}

// describe is the network an /info answer names, without its keys.
func describe(info *infoJSON) (chain.Network, error) {
	p, err := info.Protocol.Parameters()
	if err != nil || p.NetworkName == "" || p.Bech32HRP == "" {
		return chain.Network{}, source.Refuse(fmt.Errorf("GET %s/info: protocol without network name, HRP or token supply", apiBase))
	}
	return chain.Network{Name: p.NetworkName, HRP: p.Bech32HRP, Params: p,
		BaseToken: baseToken(chain.BaseToken(info.BaseToken), p.NetworkName)}, nil
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

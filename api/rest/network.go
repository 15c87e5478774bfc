package rest

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// Network is the network as the keyspace records it: name and HRP, the protocol
// parameters and base token once an indexer recorded them. A keyspace written before
// those were recorded reports what it has (name and HRP, zero parameters); one that no
// indexer has written reports nothing.
func (s *Reads) Network(ctx context.Context) (chain.Network, error) {
	rec, ok, err := s.st.Network(ctx)
	if err != nil || !ok {
		return chain.Network{}, err
	}
	net := chain.Network{Name: rec.Name, HRP: rec.HRP,
		Params: chain.ProtocolParameters{Version: chain.ProtocolVersion, NetworkName: rec.Name, Bech32HRP: rec.HRP}}
	p, ok, err := s.st.Protocol(ctx)
	if err != nil || !ok {
		return net, err
	}
	net.Params = p.Params
	if p.BaseToken != nil {
		net.BaseToken = *p.BaseToken
	}
	return net, nil
}

// BaseTokenOf is the network's base token: the recorded one; Shimmer's when none is
// recorded for Shimmer; else one named after the network (docs/core-api.md).
func BaseTokenOf(net chain.Network) tip25.BaseToken {
	bt := net.BaseToken
	switch {
	case bt == (chain.BaseToken{}) && net.Name == chain.Shimmer().Name:
		return tip25.ShimmerBaseToken()
	case bt == (chain.BaseToken{}):
		return tip25.BaseToken{Name: net.Name, TickerSymbol: net.Name, Unit: net.Name}
	}
	return tip25.BaseToken(bt)
}

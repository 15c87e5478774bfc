package sim

import (
	"fmt"
	"math/big"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Alias, foundry and NFT lifecycles: chains whose ID is zero in the
// creating output and derived from that output's ID afterwards.

func (g *generator) planAliasCreate() *plan {
	f, ok := g.fund(1, 3*minAmount)
	if !ok {
		return nil
	}
	ctrl := f.owner
	alias := chain.Output{Kind: chain.OutputAlias, Amount: g.between(minAmount, f.total/2),
		Address: ptr(ctrl), StateController: ptr(ctrl), Governor: ptr(ctrl)}
	if g.chance(0.3) {
		alias.Governor = ptr(g.popularAddress())
	}
	if g.chance(0.5) {
		alias.Issuer = ptr(ctrl)
	}
	if g.chance(0.4) {
		alias.Metadata = []byte(fmt.Sprintf("alias-%d", g.rng.Intn(1e6)))
	}
	if g.chance(0.3) {
		alias.Sender = ptr(ctrl)
	}
	return &plan{inputs: f.ids, outputs: []chain.Output{alias, f.change(alias.Amount)}}
}

// planAliasTransition moves an alias to its next state, sometimes minting
// a new foundry (which bumps the foundry counter).
func (g *generator) planAliasTransition() *plan {
	if g.aliases.len() == 0 {
		return nil
	}
	id := g.aliases.pick(g.rng)
	next := *g.live[id]
	next.AliasID = g.aliasID(id)
	next.StateIndex++
	next.StateMetadata = []byte(fmt.Sprintf("state %d", next.StateIndex))
	next.Sender = nil
	if g.chance(0.3) {
		next.Sender = ptr(*next.StateController)
	}
	p := &plan{inputs: []chain.OutputID{id}, outputs: []chain.Output{next}}
	if g.chance(0.4) {
		g.addFoundry(p)
	}
	return p
}

// addFoundry extends an alias transition with a foundry and the tokens it
// mints, paid for by one fungible input of any owner.
func (g *generator) addFoundry(p *plan) {
	f, ok := g.fund(1, 2*minAmount)
	if !ok || len(f.tokens) >= maxTokenKinds {
		return
	}
	alias := &p.outputs[0]
	alias.FoundryCounter++
	serial := alias.FoundryCounter
	minted := big.NewInt(int64(g.between(1e3, 1e9)))
	foundry := chain.Output{Kind: chain.OutputFoundry, Amount: g.between(minAmount, f.total/2),
		Address: ptr(chain.AliasAddress(alias.AliasID)), SerialNumber: serial,
		FoundryID: chain.NewFoundryID(alias.AliasID, serial, chain.TokenSchemeSimple),
		TokenScheme: chain.TokenScheme{Minted: minted, Melted: new(big.Int),
			MaxSupply: new(big.Int).Mul(minted, big.NewInt(int64(g.between(1, 10))))}}
	if g.chance(0.3) {
		foundry.Metadata = []byte(fmt.Sprintf(`{"name":"SIM%d"}`, serial))
	}
	change := f.change(foundry.Amount, chain.NativeToken{ID: foundry.FoundryID, Amount: minted})
	p.inputs = append(p.inputs, f.ids...)
	p.outputs = append(p.outputs, foundry, change)
}

func (g *generator) planNFTMint() *plan {
	f, ok := g.fund(1, 2*minAmount)
	if !ok {
		return nil
	}
	nft := chain.Output{Kind: chain.OutputNFT, Amount: g.between(minAmount, f.total/2),
		Address: ptr(g.popularAddress()), Issuer: ptr(f.owner),
		ImmutableMetadata: []byte(fmt.Sprintf("ipfs://sim/%x", g.randomBytes(8)))}
	if g.chance(0.3) {
		nft.Tag = g.popularTag()
	}
	if g.chance(0.5) {
		nft.Sender = ptr(f.owner)
	}
	return &plan{inputs: f.ids, outputs: []chain.Output{nft, f.change(nft.Amount)}}
}

// planNFTTransfer hands an NFT to someone else; its immutable issuer and
// metadata go along.
func (g *generator) planNFTTransfer() *plan {
	if g.nfts.len() == 0 {
		return nil
	}
	id := g.nfts.pick(g.rng)
	prev := g.live[id]
	next := *prev
	next.NFTID = g.nftID(id)
	next.Address = ptr(g.popularAddress())
	next.Tag, next.Sender = nil, nil
	if g.chance(0.5) {
		next.Sender = ptr(*prev.Address)
	}
	return &plan{inputs: []chain.OutputID{id}, outputs: []chain.Output{next}}
}

package sim

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// minAmount keeps outputs above a token dust floor, as storage deposits do.
const minAmount = 10_000

// maxTokenKinds caps native token kinds gathered on one output, far below
// chain.MaxNativeTokens so a mint can always add one more.
const maxTokenKinds = 16

// plan is a transaction before unlocks and commitment.
type plan struct {
	inputs  []chain.OutputID
	outputs []chain.Output
	payload *chain.TaggedData
}

// plan picks a transaction shape; most are plain transfers, some move the
// alias, foundry and NFT lifecycles along. Nil means nothing is spendable.
func (g *generator) plan(now time.Time) *plan {
	var p *plan
	switch r := g.rng.Float64(); {
	case r < 0.05:
		p = g.planAliasCreate()
	case r < 0.12:
		p = g.planAliasTransition()
	case r < 0.17:
		p = g.planNFTMint()
	case r < 0.23:
		p = g.planNFTTransfer()
	}
	if p == nil {
		p = g.planTransfer(now)
	}
	if p != nil && g.chance(0.25) {
		p.payload = &chain.TaggedData{Tag: g.popularTag(), Data: []byte(fmt.Sprintf("note %d", g.rng.Intn(1e6)))}
	}
	return p
}

// funds are fungible inputs chosen to pay for a transaction.
type funds struct {
	ids    []chain.OutputID
	total  uint64
	tokens []chain.NativeToken
	owner  chain.Address
}

// fund picks up to n fungible inputs, skipping any that would gather too
// many native token kinds; ok is false if the total is below need.
func (g *generator) fund(n int, need uint64) (f funds, ok bool) {
	if g.fungible.len() == 0 {
		return f, false
	}
	for _, id := range g.fungible.pickDistinct(g.rng, n) {
		o := g.live[id]
		tokens := mergeTokens(f.tokens, o.NativeTokens)
		if len(f.ids) > 0 && len(tokens) > maxTokenKinds {
			continue
		}
		f.ids, f.total, f.tokens = append(f.ids, id), f.total+o.Amount, tokens
	}
	f.owner = owner(g.live[f.ids[0]])
	return f, f.total >= need
}

// change returns the remainder (and all native tokens) to the funder.
func (f funds) change(spent uint64, extra ...chain.NativeToken) chain.Output {
	return chain.Output{Kind: chain.OutputBasic, Amount: f.total - spent,
		Address: ptr(f.owner), NativeTokens: mergeTokens(f.tokens, extra)}
}

// consolidatingInputs are the inputs a transfer gathers besides its usual one to three
// while the spendable pool is above Options.SpendableOutputs.
const consolidatingInputs = 3

func (g *generator) planTransfer(now time.Time) *plan {
	consolidate := g.opts.SpendableOutputs > 0 && g.fungible.len() > g.opts.SpendableOutputs
	inputs := 1 + g.rng.Intn(3)
	if consolidate {
		inputs += consolidatingInputs
	}
	f, ok := g.fund(inputs, 1)
	if !ok {
		return nil
	}
	p := &plan{inputs: f.ids}
	spent := uint64(0)
	payments := 1 + g.rng.Intn(2)
	if consolidate {
		payments = 1
	}
	for i := payments; i > 0 && f.total-spent >= 2*minAmount; i-- {
		amount := g.between(minAmount, (f.total-spent)/2)
		p.outputs = append(p.outputs, g.basicTo(g.recipient(), amount, f.owner, now))
		spent += amount
	}
	change := f.change(spent)
	if len(p.outputs) > 0 && len(change.NativeTokens) > 0 && g.chance(0.3) {
		p.outputs[0].NativeTokens, change.NativeTokens = splitToken(change.NativeTokens)
	}
	p.outputs = append(p.outputs, change)
	return p
}

// basicTo decorates a payment with the optional features and unlock
// conditions the indexer must be able to query.
func (g *generator) basicTo(to chain.Address, amount uint64, from chain.Address, now time.Time) chain.Output {
	o := chain.Output{Kind: chain.OutputBasic, Amount: amount, Address: ptr(to)}
	if g.chance(0.6) {
		o.Sender = ptr(from)
	}
	if g.chance(0.3) {
		o.Tag = g.popularTag()
	}
	if g.chance(0.2) {
		o.Metadata = []byte(fmt.Sprintf("invoice-%d", g.rng.Intn(1e6)))
	}
	if g.chance(0.08) {
		o.StorageDepositReturn = &chain.StorageDepositReturn{ReturnAddress: from, Amount: g.between(1, min(amount, minAmount))}
	}
	if g.chance(0.05) {
		o.Timelock = ptr(uint32(now.Unix()) + uint32(g.between(3600, 7*86400)))
	}
	if g.chance(0.05) {
		o.Expiration = &chain.Expiration{ReturnAddress: from, UnixTime: uint32(now.Unix()) + uint32(g.between(86400, 30*86400))}
	}
	return o
}

// recipient is mostly a popular Ed25519 address, sometimes an alias or NFT.
func (g *generator) recipient() chain.Address {
	switch r := g.rng.Float64(); {
	case r < 0.03 && g.aliases.len() > 0:
		return chain.AliasAddress(g.aliasID(g.aliases.pick(g.rng)))
	case r < 0.05 && g.nfts.len() > 0:
		return chain.NFTAddress(g.nftID(g.nfts.pick(g.rng)))
	}
	return g.popularAddress()
}

// aliasID resolves the zero ID of a freshly created alias.
func (g *generator) aliasID(id chain.OutputID) chain.AliasID { return g.live[id].ResolvedAliasID(id) }

func (g *generator) nftID(id chain.OutputID) chain.NFTID { return g.live[id].ResolvedNFTID(id) }

// mergeTokens sums token amounts by ID into a new sorted slice, leaving
// its inputs untouched.
func mergeTokens(a, b []chain.NativeToken) []chain.NativeToken {
	if len(a)+len(b) == 0 {
		return nil
	}
	sums := make(map[chain.FoundryID]*big.Int)
	var ids []chain.FoundryID
	for _, t := range append(slices.Clone(a), b...) {
		if sums[t.ID] == nil {
			sums[t.ID] = new(big.Int)
			ids = append(ids, t.ID)
		}
		sums[t.ID].Add(sums[t.ID], t.Amount)
	}
	slices.SortFunc(ids, func(x, y chain.FoundryID) int { return bytes.Compare(x[:], y[:]) })
	out := make([]chain.NativeToken, len(ids))
	for i, id := range ids {
		out[i] = chain.NativeToken{ID: id, Amount: sums[id]}
	}
	return out
}

// splitToken hands half of the first token (rounded down, at least one
// unit) to a payment and keeps the rest.
func splitToken(tokens []chain.NativeToken) (paid, kept []chain.NativeToken) {
	first := tokens[0]
	half := new(big.Int).Rsh(first.Amount, 1)
	if half.Sign() == 0 {
		return []chain.NativeToken{first}, tokens[1:]
	}
	kept = append([]chain.NativeToken{{ID: first.ID, Amount: new(big.Int).Sub(first.Amount, half)}}, tokens[1:]...)
	return []chain.NativeToken{{ID: first.ID, Amount: half}}, kept
}
